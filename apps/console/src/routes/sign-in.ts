import { join } from "node:path";
import express, { type Response } from "express";
import { endPendingCookie, cookieOf, pendingCookie, sessionCookie } from "../cookies.js";
import { codeOf, messageOf, sendError, statusOf, type Routes } from "../middleware.js";
import { SIGN_IN_AGAIN, sendNotice } from "../notice-page.js";
import { PENDING_COOKIE, SignInRefused } from "../oidc.js";

/** A refused sign-in, as a page that says why and where to start again. */
const refused = (res: Response, status: number, message: string) => sendNotice(res, status, "You are not signed in", message, SIGN_IN_AGAIN);

/**
 * Signing in (docs/console.md, "Signing in"): by a one-time link, or by OpenID Connect. Either ends
 * in the session cookie of a session the control-plane started for a member it knows.
 */
export function signInRoutes({ app, ctx }: Routes): void {
  const { control, oidc } = ctx;
  const secure = ctx.config.secureCookies;

  // Sign-in by link: the GET only shows a button (mail scanners open links; only a person's POST uses the token).
  app.get("/signin", (_req, res) => res.sendFile(join(ctx.web, "web", "signin.html")));
  app.post("/signin", express.urlencoded({ extended: false, limit: "1kb" }), async (req, res) => {
    const token = typeof req.body?.token === "string" ? req.body.token : "";
    try {
      const session = await control.RedeemSignInLink({ token });
      res.setHeader("set-cookie", sessionCookie(session.token, session.expires_at_ms, secure));
      res.redirect(303, "/");
    } catch (err) {
      const status = statusOf(codeOf(err));
      if (status === 404) sendNotice(res, 404, "This sign-in link does not work", messageOf(err, "Sign-in failed."), { href: "/signin", label: "Back to sign-in" });
      else sendNotice(res, status, "Signing in failed", messageOf(err, "Sign-in failed."), SIGN_IN_AGAIN);
    }
  });

  // Sign-in by OpenID Connect (authorization code with PKCE): the issuer proves the address, the control-plane knows the member.
  app.get("/api/signin-options", (_req, res) => res.json({ oidc: oidc !== undefined }));
  const notConfigured = (res: Response) => sendError(res, 404, "Sign-in by OpenID Connect is not configured.", "not_found");
  app.get("/oidc/start", async (req, res) => {
    if (!oidc) return notConfigured(res);
    try {
      const { url, cookie } = await oidc.start(typeof req.query.org === "string" ? req.query.org : "");
      res.setHeader("set-cookie", pendingCookie(cookie, secure));
      res.redirect(303, url);
    } catch {
      refused(res, 503, "The identity provider cannot be reached right now.");
    }
  });
  app.get("/oidc/callback", async (req, res) => {
    if (!oidc) return notConfigured(res);
    const clear = endPendingCookie(secure);
    try {
      const identity = await oidc.finish(new URL(req.originalUrl, `${ctx.config.oidc!.publicUrl.replace(/\/$/, "")}/`), cookieOf(req, PENDING_COOKIE));
      const session = await control.StartOidcSession({ email: identity.email, issuer: identity.issuer, subject: identity.subject, org: identity.org });
      res.setHeader("set-cookie", [clear, sessionCookie(session.token, session.expires_at_ms, secure)]);
      // A page of our own that moves on to "/": the SameSite=Strict session cookie is not sent on a redirect that started at the issuer's site.
      res.sendFile(join(ctx.web, "web", "signed-in.html"));
    } catch (err) {
      res.setHeader("set-cookie", clear);
      if (err instanceof SignInRefused) return void refused(res, 401, err.message);
      const code = codeOf(err);
      refused(res, code === "not_found" || code === "invalid_request" ? 403 : statusOf(code), messageOf(err, "Sign-in failed."));
    }
  });
}
