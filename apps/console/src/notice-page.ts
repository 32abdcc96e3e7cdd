import type { Response } from "express";

/** Text for HTML: the five characters that could start markup or end an attribute. */
const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Where a notice sends the person next. */
export interface NoticeLink {
  href: string;
  label: string;
}

/**
 * A page of the console's own that says what happened and where to go next — a sign-in link that
 * does not work, a refused single sign-on, a page that does not exist — styled like the others (the
 * console's stylesheet and icon, no script), its text escaped: a message may quote what the person sent.
 */
export function noticePage(title: string, message: string, link: NoticeLink): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${escapeHtml(title)} · Gateway console</title>
  <link rel="icon" href="/assets/web/favicon.svg" type="image/svg+xml">
  <link rel="stylesheet" href="/assets/web/app.css">
</head>
<body>
  <header class="bar"><a class="brand" href="/"><img src="/assets/web/favicon.svg" alt="" width="24" height="24">Gateway console</a></header>
  <main class="notice">
    <h1>${escapeHtml(title)}</h1>
    <p>${escapeHtml(message)}</p>
    <p><a class="button" href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>
  </main>
</body>
</html>
`;
}

/** Answers `status` with a notice page (never cached). */
export function sendNotice(res: Response, status: number, title: string, message: string, link: NoticeLink = { href: "/", label: "Go to the console" }): void {
  res.status(status).setHeader("cache-control", "no-store");
  res.type("html").send(noticePage(title, message, link));
}

/** Back to the sign-in page. */
export const SIGN_IN_AGAIN: NoticeLink = { href: "/signin", label: "Sign in again" };
