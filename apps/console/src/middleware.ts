import { timingSafeEqual } from "node:crypto";
import express, { type Express, type NextFunction, type Request, type RequestHandler, type Response } from "express";
import { ERROR_CODES, GatewayError, type ErrorCode } from "@gateway/errors";
import type { ConsoleMember } from "@gateway/proto";
import type { ConsoleContext } from "./context.js";
import { SESSION_COOKIE, cookieOf } from "./cookies.js";
import { sendNotice } from "./notice-page.js";
import { DEFAULT_MONEY, type MoneyFormat } from "./shared/money.js";

/** The signed-in member, its session token and the operator's money format, as `requireSession` leaves them on `res.locals`. */
export interface Signed {
  member: ConsoleMember;
  token: string;
  money: MoneyFormat;
}
/**
 * Who may call a route: an organization's member (`org`: the routes act for its organization), an
 * operator (`operator`: the routes act across organizations), or either (`any`).
 */
export type Scope = "org" | "operator" | "any";
/** An API route: its answer is the JSON body; a thrown error becomes the error body. */
export type Handler = (req: Request, res: Response) => Promise<unknown>;

const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The signed-in member of this request (after `requireSession`). */
export const signed = (res: Response) => res.locals.signed as Signed;

/** The code an error carries: a GatewayError's, or the gRPC error's the control-plane or the ledger answered. */
export const codeOf = (err: unknown): unknown => (err as { code?: unknown }).code;
/** The HTTP status of an error code; an error without a known code is the gateway's failure (502). */
export const statusOf = (code: unknown) => (typeof code === "string" && code in ERROR_CODES ? ERROR_CODES[code as ErrorCode].http : 502);
export const messageOf = (err: unknown, fallback: string) => (err instanceof Error ? err.message : fallback);
/** An error in the API's shape. */
export const sendError = (res: Response, status: number, message: string, code: string) => void res.status(status).json({ error: { message, code } });

/** Pages load no inline script and nothing from another origin; no other site may frame them. */
export const securityHeaders: RequestHandler = (_req, res, next) => {
  res.setHeader("content-security-policy", CSP);
  res.setHeader("x-content-type-options", "nosniff");
  // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` on the console's own form posts.
  res.setHeader("referrer-policy", "same-origin");
  res.setHeader("cross-origin-opener-policy", "same-origin");
  next();
};

/** A state-changing request from another site is refused before anything else (no cookie is trusted for it). */
export function refuseCrossSite(ctx: ConsoleContext): RequestHandler {
  /** The console's own origin, as the browser addressed it. */
  const ownOrigin = (req: Request) => `http${ctx.config.secureCookies ? "s" : ""}://${req.headers.host}`;
  return (req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const site = req.headers["sec-fetch-site"];
    const origin = req.headers.origin;
    if ((site !== undefined && site !== "same-origin") || (origin !== undefined && origin !== ownOrigin(req))) return sendError(res, 403, "Cross-site requests are refused.", "forbidden");
    next();
  };
}

/** The control-plane answers the session on every call: a sign-out, an expiry or a removed member takes effect on the next one. */
export function requireSession(ctx: ConsoleContext): RequestHandler {
  return async (req, res, next) => {
    const token = cookieOf(req, SESSION_COOKIE);
    try {
      if (!token) throw new GatewayError("missing_api_key", "Sign in first.");
      const session = await ctx.control.GetConsoleSession({ token });
      if (!session.member) throw new GatewayError("missing_api_key", "Sign in first.");
      res.locals.signed = { member: session.member, token, money: session.money ?? DEFAULT_MONEY } satisfies Signed;
      next();
    } catch (err) {
      const code = codeOf(err);
      const status = code === "not_found" || code === "missing_api_key" ? 401 : statusOf(code);
      if (req.path.startsWith("/api/"))
        sendError(res, status, status === 401 ? "Sign in first." : "The console cannot reach the gateway right now.", status === 401 ? "unauthenticated" : String(code));
      else if (status === 401) res.redirect(303, "/signin");
      else sendNotice(res, 503, "The console cannot reach the gateway", "Your session could not be checked right now. Try again in a moment.", { href: req.originalUrl, label: "Try again" });
    }
  };
}

/** Every state-changing API call carries the session's CSRF token. */
export function requireCsrf(ctx: ConsoleContext): RequestHandler {
  return (req, res, next) => {
    const given = Buffer.from(String(req.headers["x-csrf-token"] ?? ""));
    const expected = Buffer.from(ctx.csrfOf(signed(res).token));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return sendError(res, 403, "Missing or wrong CSRF token.", "forbidden");
    next();
  };
}

/**
 * Only sessions of `scope` pass. The control-plane enforces roles again on every call it answers;
 * this keeps a session of the wrong kind from reaching the ledger at all.
 */
export const scoped =
  (scope: Scope) =>
  (_req: Request, res: Response, next: NextFunction): void => {
    const operator = signed(res).member.role === "operator";
    if (scope === "any" || (scope === "operator") === operator) return next();
    sendError(res, 403, operator ? "An operator is not a member of an organization: use the operator pages." : "Only operators may do this.", "forbidden");
  };

/** An API answer: never cached; the handler's value as JSON, or its error with the error code's status. */
export const api = (fn: Handler) => async (req: Request, res: Response) => {
  res.setHeader("cache-control", "no-store");
  try {
    res.json(await fn(req, res));
  } catch (err) {
    const code = codeOf(err);
    sendError(res, statusOf(code), messageOf(err, "failed"), typeof code === "string" ? code : "internal_error");
  }
};

/** An unknown API path is a JSON 404; an unknown page, a page that says so. */
export const notFound: RequestHandler = (req, res) =>
  req.path.startsWith("/api/") ? sendError(res, 404, "Not found.", "not_found") : sendNotice(res, 404, "Page not found", `There is no page at ${req.path.slice(0, 200)}.`);

/** What a route module registers its routes with (`routes/`). */
export interface Routes {
  app: Express;
  ctx: ConsoleContext;
  /** Signed in, any role: for pages, which send a person without a session to /signin. */
  session: RequestHandler;
  /** A read (GET) of the signed-in member's organization, or, by scope, an operator's: answered by `api`. */
  read(path: string, fn: Handler, scope?: Scope): void;
  /** A download (GET, a CSV export) its handler answers itself: signed in, of `scope` (default org). */
  download(path: string, fn: (req: Request, res: Response) => Promise<void>, scope?: Scope): void;
  /** A change (POST): signed in, same origin with the session's CSRF token, a JSON body of at most `limit` (4kb); answered by `api`. */
  write(path: string, fn: Handler, options?: { limit?: string; scope?: Scope }): void;
}

export function routesOn(app: Express, ctx: ConsoleContext): Routes {
  const session = requireSession(ctx);
  const csrf = requireCsrf(ctx);
  return {
    app,
    ctx,
    session,
    read: (path, fn, scope = "org") => void app.get(path, session, scoped(scope), api(fn)),
    download: (path, fn, scope = "org") => void app.get(path, session, scoped(scope), fn),
    write: (path, fn, { limit = "4kb", scope = "org" } = {}) => void app.post(path, session, scoped(scope), csrf, express.json({ limit }), api(fn)),
  };
}
