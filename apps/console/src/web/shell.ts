/**
 * What every signed-in page shares: the session (who, the CSRF token, the operator's money format),
 * the header with the console's navigation — one link per page, each page at its own URL — and the
 * sign-out button, money as the operator set it, and starting the page: `body[data-ready]` once it
 * is drawn, or the reason it could not be, at the top of the page.
 */
import { DEFAULT_MONEY, formatAmount, formatPrice, type MoneyFormat } from "../shared/money.js";
import { getJson, messageOf, useCsrf } from "./api.js";
import { $, el } from "./dom.js";

export interface Member {
  email: string;
  role: string;
  org_id: string;
}

let moneyFormat: MoneyFormat = DEFAULT_MONEY;
let signedIn: Member = { email: "", role: "viewer", org_id: "" };

/** An amount (balance, spend, budget) in the operator's format: "12.50 credits". */
export const money = (minor: number) => formatAmount(minor, moneyFormat);
/** A unit price, exact, in the operator's format. */
export const price = (minor: number) => formatPrice(minor, moneyFormat);
/** The operator's money format (charts' axes, the price form's hints). */
export const moneyFormatOf = () => moneyFormat;
/** The signed-in member. */
export const member = () => signedIn;

/** The pages in the header, by kind of member; `admin`: only admins see it. */
const ORG_PAGES: ReadonlyArray<{ href: string; label: string; admin?: true }> = [
  { href: "/", label: "Overview" },
  { href: "/requests", label: "Requests" },
  { href: "/keys", label: "Keys" },
  { href: "/models", label: "Models" },
  { href: "/budget", label: "Budgets" },
  { href: "/alerts", label: "Alerts" },
  { href: "/guardrails", label: "Guardrails" },
  { href: "/members", label: "Members" },
  { href: "/audit", label: "Audit log", admin: true },
];
const OPERATOR_PAGES: ReadonlyArray<{ href: string; label: string }> = [
  { href: "/operator", label: "Organizations" },
  { href: "/operator/trace", label: "Trace lookup" },
  { href: "/operator/health", label: "Provider health" },
  { href: "/operator/catalog", label: "Catalog" },
  { href: "/operator/mcp", label: "MCP tools" },
  { href: "/operator/audit", label: "Audit log" },
  { href: "/operator/settings", label: "Settings" },
];

/** The header: the navigation (the page's own link marked current: `body[data-nav]`), who is signed in, and signing out. */
function header(m: Member, csrf: string): void {
  const bar = $("bar");
  const operator = m.role === "operator";
  const pages = operator ? OPERATOR_PAGES : ORG_PAGES.filter((p) => !p.admin || m.role === "admin");
  const nav = el("nav", "", { "aria-label": "Console" });
  const list = el("ul");
  for (const p of pages) {
    const a = el("a", p.label, { href: p.href });
    if (document.body.dataset.nav === p.href) a.setAttribute("aria-current", "page");
    const li = el("li");
    li.append(a);
    list.append(li);
  }
  nav.append(list);
  const who = el("span", `${m.email} (${m.role})${m.org_id ? ` · ${m.org_id}` : ""}`, { id: "who" });
  const signout = el("button", "Sign out", { type: "button", id: "signout" });
  signout.addEventListener("click", async () => {
    await fetch("/api/signout", { method: "POST", credentials: "same-origin", headers: { "x-csrf-token": csrf } }).catch(() => undefined);
    location.assign("/signin?signed_out=1");
  });
  bar.querySelector<HTMLAnchorElement>(".brand")!.href = operator ? "/operator" : "/";
  bar.append(nav, who, signout);
}

/** Shows why the page could not be drawn, at its top (an alert for screen readers). */
export function pageFailed(e: unknown): void {
  const line = el("p", `This page could not be loaded: ${messageOf(e)}`, { role: "alert", class: "feedback error page-error" });
  $("main").prepend(line);
}

/** Starts a signed-in page: the session and the header, then `draw` (the page's own loads); marks the page ready or says why not. */
export async function startPage(draw: (m: Member) => Promise<unknown>): Promise<void> {
  try {
    const s = await getJson<{ member: Member; csrf_token: string; money?: MoneyFormat }>("/api/session");
    useCsrf(s.csrf_token);
    moneyFormat = s.money ?? DEFAULT_MONEY;
    signedIn = s.member;
    header(s.member, s.csrf_token);
    await draw(s.member);
  } catch (e) {
    pageFailed(e);
  }
  document.body.dataset.ready = "true";
}
