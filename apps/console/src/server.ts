import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { Server } from "node:http";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import express, { type NextFunction, type Request, type Response } from "express";
import { ERROR_CODES, GatewayError, type ErrorCode } from "@gateway/errors";
import { mountOperator } from "./operator.js";
import { OidcSignIn, PENDING_COOKIE, SignInRefused, type OidcConfig } from "./oidc.js";
import { adminService, bearer, createClient, ledgerService, type AdminServiceMethods, type ConsoleMember, type LedgerServiceMethods, type TypedClient, type UsageRecord } from "@gateway/proto";

/**
 * The console's server (docs/console.md): the built web app and a JSON API for it, over the
 * control-plane (sign-in, sessions) and the ledger (an organization's spend and requests), as its
 * own caller identity `console`. It never reads Postgres. Every API call acts for the organization
 * of the signed-in member, which the control-plane's session answers; the browser holds only an
 * HttpOnly session cookie, and every state-changing call needs the session's CSRF token from the same
 * origin. Pages load no inline script and nothing from another origin (Content-Security-Policy).
 */
export interface ConsoleConfig {
  host: string;
  port: number;
  controlPlaneAddr: string;
  ledgerAddr: string;
  /** This service's caller tokens at the control-plane and the ledger (identity `console`). */
  controlPlaneToken: string;
  ledgerToken: string;
  /** Keys the CSRF tokens; every replica needs the same. */
  secret: string;
  /** Set the cookie's Secure flag (behind TLS). */
  secureCookies: boolean;
  /**
   * Where people reach the console (CONSOLE_PUBLIC_URL): the origin of the sign-in links it makes.
   * Absent: the address it listens on. Never the request's Host header, which the caller chooses.
   */
  publicUrl?: string;
  /** Sign-in by OpenID Connect, besides one-time links; absent: links only. */
  oidc?: OidcConfig;
  /** The data-planes' circuit breaker (DATA_PLANE_BREAKER_THRESHOLD / _COOLDOWN_MS), to say which deployments' breakers are likely open. */
  breakerThreshold?: number;
  breakerCooldownMs?: number;
}

export interface ConsoleServer {
  url: string;
  port: number;
  close(): Promise<void>;
}

export const SESSION_COOKIE = "gw_console";
const WEB = join(dirname(fileURLToPath(import.meta.url)), "web");
const CSP = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";
const DAY_MS = 86_400_000;

export interface Signed {
  member: ConsoleMember;
  token: string;
}
export type Scope = "org" | "operator" | "any";
export type Handler = (req: Request, res: Response) => Promise<unknown>;

function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

const parse = (json: string): unknown[] => {
  try {
    const v = JSON.parse(json || "[]") as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

/**
 * A usage record as an organization's member sees it (as `GET /v1/usage/{id}` shows it): line
 * items, guardrail outcomes and attempts as arrays, and never what the providers charge the
 * operator (`provider_cost_minor`, the record's and each attempt's): that is the operator's margin.
 */
function memberRecord(r: UsageRecord) {
  const { provider_cost_minor: _cost, line_items_json, guardrails_json, attempts_json, journal_txn_id: _txn, ...rest } = r;
  const attempts = parse(attempts_json).map((a) => {
    const { provider_cost_minor: _p, ...visible } = a as Record<string, unknown>;
    return visible;
  });
  return { ...rest, line_items: parse(line_items_json), guardrails: parse(guardrails_json), attempts };
}

/** The export's columns: what a member may see of each record (no provider cost). */
const CSV_COLUMNS = [
  "request_id",
  "created_at",
  "key_id",
  "model",
  "route",
  "status",
  "stream",
  "input_tokens",
  "cached_input_tokens",
  "cache_creation_input_tokens",
  "output_tokens",
  "reasoning_tokens",
  "estimated",
  "cost_minor",
  "duration_ms",
] as const;
const csvCell = (v: unknown) => {
  const s = String(v);
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};
const csvRow = (r: UsageRecord) => `${CSV_COLUMNS.map((c) => csvCell(c === "created_at" ? new Date(r.created_at_ms).toISOString() : r[c])).join(",")}\n`;

/** A body field that should be a string ("" otherwise: the control-plane names what is missing). */
const text = (v: unknown) => (typeof v === "string" ? v : "");

const statusOf = (code: unknown) => (typeof code === "string" && code in ERROR_CODES ? ERROR_CODES[code as ErrorCode].http : 502);

export function startConsole(config: ConsoleConfig): Promise<ConsoleServer> {
  const control: TypedClient<AdminServiceMethods> = createClient(adminService(), config.controlPlaneAddr, { timeoutMs: 5_000, metadata: bearer(config.controlPlaneToken) });
  const ledger: TypedClient<LedgerServiceMethods> = createClient(ledgerService(), config.ledgerAddr, { timeoutMs: 10_000, metadata: bearer(config.ledgerToken) });
  const csrfOf = (sessionToken: string) => createHmac("sha256", config.secret).update(sessionToken).digest("base64url");
  const signed = (res: Response) => res.locals.signed as Signed;
  /** The origin of the links the console hands out: configured, or the address it listens on. */
  let listening = `http://${config.host}:${config.port}`;
  const linkOrigin = () => (config.publicUrl ?? listening).replace(/\/$/, "");
  /** The console's own origin, as the browser addressed it. */
  const ownOrigin = (req: Request) => `http${config.secureCookies ? "s" : ""}://${req.headers.host}`;

  /** The session cookie: HttpOnly, SameSite=Strict, the whole console, until the session's absolute expiry (Secure behind TLS). */
  const sessionCookie = (token: string, expiresAtMs: number) =>
    `${SESSION_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/; Max-Age=${Math.floor((expiresAtMs - Date.now()) / 1000)}${config.secureCookies ? "; Secure" : ""}`;
  const app = express();
  app.disable("x-powered-by");
  app.use((_req, res, next) => {
    res.setHeader("content-security-policy", CSP);
    res.setHeader("x-content-type-options", "nosniff");
    // same-origin, not no-referrer: under no-referrer a browser sends `Origin: null` on the console's own form posts.
    res.setHeader("referrer-policy", "same-origin");
    res.setHeader("cross-origin-opener-policy", "same-origin");
    next();
  });
  // A state-changing request from another site is refused before anything else (no cookie is trusted for it).
  app.use((req, res, next) => {
    if (req.method === "GET" || req.method === "HEAD") return next();
    const site = req.headers["sec-fetch-site"];
    const origin = req.headers.origin;
    if ((site !== undefined && site !== "same-origin") || (origin !== undefined && origin !== ownOrigin(req))) {
      res.status(403).json({ error: { message: "Cross-site requests are refused.", code: "forbidden" } });
      return;
    }
    next();
  });

  // For the orchestrator's probes: the process answers (sessions and data are the control-plane's and the ledger's).
  app.get("/healthz", (_req, res) => res.type("text/plain").send("ok"));
  // Sign-in by link: the GET only shows a button (mail scanners open links; only a person's POST uses the token).
  app.get("/signin", (_req, res) => res.sendFile(join(WEB, "signin.html")));
  app.post("/signin", express.urlencoded({ extended: false, limit: "1kb" }), async (req, res) => {
    const token = typeof req.body?.token === "string" ? req.body.token : "";
    try {
      const session = await control.RedeemSignInLink({ token });
      res.setHeader("set-cookie", sessionCookie(session.token, session.expires_at_ms));
      res.redirect(303, "/");
    } catch (err) {
      res
        .status(statusOf((err as { code?: unknown }).code))
        .type("text/plain")
        .send(err instanceof Error ? err.message : "Sign-in failed.");
    }
  });

  // Sign-in by OpenID Connect (authorization code with PKCE): the issuer proves the address, the control-plane knows the member.
  const oidc = config.oidc ? new OidcSignIn(config.oidc, config.secret) : undefined;
  app.get("/api/signin-options", (_req, res) => res.json({ oidc: oidc !== undefined }));
  const refused = (res: Response, status: number, message: string) => res.status(status).type("text/plain").send(`${message}\n\nSign in again: /signin`);
  app.get("/oidc/start", async (req, res) => {
    if (!oidc) return void res.status(404).json({ error: { message: "Sign-in by OpenID Connect is not configured.", code: "not_found" } });
    try {
      const { url, cookie } = await oidc.start(typeof req.query.org === "string" ? req.query.org : "");
      res.setHeader("set-cookie", `${PENDING_COOKIE}=${cookie}; HttpOnly; SameSite=Lax; Path=/oidc; Max-Age=600${config.secureCookies ? "; Secure" : ""}`);
      res.redirect(303, url);
    } catch {
      refused(res, 503, "The identity provider cannot be reached right now.");
    }
  });
  app.get("/oidc/callback", async (req, res) => {
    if (!oidc) return void res.status(404).json({ error: { message: "Sign-in by OpenID Connect is not configured.", code: "not_found" } });
    const clear = `${PENDING_COOKIE}=; HttpOnly; SameSite=Lax; Path=/oidc; Max-Age=0${config.secureCookies ? "; Secure" : ""}`;
    try {
      const identity = await oidc.finish(new URL(req.originalUrl, `${config.oidc!.publicUrl.replace(/\/$/, "")}/`), cookieOf(req, PENDING_COOKIE));
      const session = await control.StartOidcSession({ email: identity.email, issuer: identity.issuer, subject: identity.subject, org: identity.org });
      res.setHeader("set-cookie", [clear, sessionCookie(session.token, session.expires_at_ms)]);
      // A page of our own that moves on to "/": the SameSite=Strict session cookie is not sent on a redirect that started at the issuer's site.
      res.sendFile(join(WEB, "signed-in.html"));
    } catch (err) {
      res.setHeader("set-cookie", clear);
      if (err instanceof SignInRefused) return void refused(res, 401, err.message);
      const code = (err as { code?: unknown }).code;
      refused(res, code === "not_found" || code === "invalid_request" ? 403 : statusOf(code), err instanceof Error ? err.message : "Sign-in failed.");
    }
  });

  const requireSession = async (req: Request, res: Response, next: NextFunction) => {
    const token = cookieOf(req, SESSION_COOKIE);
    try {
      if (!token) throw new GatewayError("missing_api_key", "Sign in first.");
      const session = await control.GetConsoleSession({ token });
      if (!session.member) throw new GatewayError("missing_api_key", "Sign in first.");
      res.locals.signed = { member: session.member, token } satisfies Signed;
      next();
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      const status = code === "not_found" || code === "missing_api_key" ? 401 : statusOf(code);
      if (req.path.startsWith("/api/"))
        res.status(status).json({ error: { message: status === 401 ? "Sign in first." : "The console cannot reach the gateway right now.", code: status === 401 ? "unauthenticated" : String(code) } });
      else res.redirect(303, "/signin");
    }
  };
  // Every state-changing API call carries the session's CSRF token.
  const requireCsrf = (req: Request, res: Response, next: NextFunction) => {
    const given = Buffer.from(String(req.headers["x-csrf-token"] ?? ""));
    const expected = Buffer.from(csrfOf(signed(res).token));
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      res.status(403).json({ error: { message: "Missing or wrong CSRF token.", code: "forbidden" } });
      return;
    }
    next();
  };
  const api = (fn: (req: Request, res: Response) => Promise<unknown>) => async (req: Request, res: Response) => {
    res.setHeader("cache-control", "no-store");
    try {
      res.json(await fn(req, res));
    } catch (err) {
      const code = (err as { code?: unknown }).code;
      res.status(statusOf(code)).json({ error: { message: err instanceof Error ? err.message : "failed", code: typeof code === "string" ? code : "internal_error" } });
    }
  };

  /**
   * Who may call a route: an organization's member (`org`: the routes act for its organization), an
   * operator (`operator`: the routes act across organizations), or either (`any`). The
   * control-plane enforces roles again on every call it answers; this keeps a session of the wrong
   * kind from reaching the ledger at all.
   */
  const scoped = (scope: Scope) => (_req: Request, res: Response, next: NextFunction) => {
    const operator = signed(res).member.role === "operator";
    if (scope === "any" || (scope === "operator") === operator) return next();
    res.status(403).json({
      error: { message: operator ? "An operator is not a member of an organization: use the operator pages." : "Only operators may do this.", code: "forbidden" },
    });
  };
  /** A read of the signed-in member's organization (or, by scope, an operator's). */
  const read = (path: string, fn: Handler, scope: Scope = "org") => app.get(path, requireSession, scoped(scope), api(fn));
  /** A change: signed in, same origin with the session's CSRF token, a JSON body of at most `limit`. */
  const write = (path: string, fn: Handler, limit = "4kb", scope: Scope = "org") => app.post(path, requireSession, scoped(scope), requireCsrf, express.json({ limit }), api(fn));

  app.get("/", requireSession, (_req, res) => (signed(res).member.role === "operator" ? res.redirect(303, "/operator") : res.sendFile(join(WEB, "index.html"))));
  app.get("/operator", requireSession, (_req, res) => (signed(res).member.role === "operator" ? res.sendFile(join(WEB, "operator.html")) : res.redirect(303, "/")));
  app.get("/requests/:id", requireSession, (_req, res) => res.sendFile(join(WEB, "request.html")));
  app.use("/assets", express.static(WEB, { index: false, fallthrough: false }));

  read("/api/session", async (_req, res) => ({ member: signed(res).member, csrf_token: csrfOf(signed(res).token) }), "any");
  /** The overview's window: 1 to 90 days back from the end of this hour, by hour up to a week, by day past it; grouped by model or key. */
  const spendWindow = (req: Request) => {
    const days = Math.min(Math.max(Number.parseInt(String(req.query.days ?? "7"), 10) || 7, 1), 90);
    const to = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000;
    return { days, from_ms: to - days * DAY_MS, to_ms: to, bucket: days <= 7 ? ("hour" as const) : ("day" as const), group_by: req.query.group === "key" ? ("key" as const) : ("model" as const) };
  };
  read("/api/overview", async (req, res) => {
    const org = signed(res).member.org_id;
    const { days, ...w } = spendWindow(req);
    const [credits, series] = await Promise.all([ledger.GetCredits({ org_id: org }), ledger.SpendSeries({ org_id: org, ...w })]);
    // Burn rate: the window's spend per day (whole days, at least one); days left at that rate (null when nothing is spent).
    const spent = series.points.reduce((n, p) => n + p.cost_minor, 0);
    const burn = Math.ceil(spent / days);
    const daysLeft = burn > 0 ? Math.floor((credits.balance_minor / burn) * 10) / 10 : null;
    return { credits, days, bucket: w.bucket, group_by: w.group_by, points: series.points, burn_rate_minor_per_day: burn, days_left: daysLeft };
  });
  // The chart's data as CSV (the same window and grouping): what a spreadsheet needs to redo it.
  app.get("/api/spend.csv", requireSession, scoped("org"), async (req, res) => {
    const { days: _days, ...w } = spendWindow(req);
    try {
      const { points } = await ledger.SpendSeries({ org_id: signed(res).member.org_id, ...w });
      const head = `${w.bucket}_start,${w.group_by},requests,input_tokens,output_tokens,cached_input_tokens,cache_creation_input_tokens,reasoning_tokens,cost_minor\n`;
      const lines = points.map((p) =>
        [new Date(p.bucket_start_ms).toISOString(), p.group, p.requests, p.input_tokens, p.output_tokens, p.cached_input_tokens, p.cache_creation_input_tokens, p.reasoning_tokens, p.cost_minor]
          .map(csvCell)
          .join(","),
      );
      res.setHeader("content-type", "text/csv; charset=utf-8");
      res.setHeader("content-disposition", `attachment; filename="spend-by-${w.group_by}.csv"`);
      res.setHeader("cache-control", "no-store");
      res.send(head + lines.map((l) => `${l}\n`).join(""));
    } catch (err) {
      res.status(statusOf((err as { code?: unknown }).code)).json({ error: { message: err instanceof Error ? err.message : "failed", code: "upstream_error" } });
    }
  });
  /** The log's filters from the query string (key, model, route, status, from/to as Unix ms). */
  const filters = (req: Request, res: Response) => {
    const q = req.query as Record<string, string | undefined>;
    const int = (v: string | undefined) => (v && /^\d+$/.test(v) ? Number(v) : 0);
    return {
      org_id: signed(res).member.org_id,
      key_id: q.key ?? "",
      model: q.model ?? "",
      route: q.route ?? "",
      status: int(q.status),
      from_ms: int(q.from_ms),
      to_ms: int(q.to_ms),
    };
  };
  read("/api/requests", async (req, res) => {
    const q = req.query as Record<string, string | undefined>;
    const page = await ledger.ListUsage({ ...filters(req, res), limit: Math.min(Number.parseInt(q.limit ?? "50", 10) || 50, 200), cursor: q.cursor ?? "" });
    return { data: page.records.map(memberRecord), next_cursor: page.next_cursor || null };
  });
  // The current filter as CSV, newest first, streamed a keyset page at a time as the client reads it.
  app.get("/api/requests.csv", requireSession, scoped("org"), async (req, res) => {
    const f = filters(req, res);
    res.setHeader("content-type", "text/csv; charset=utf-8");
    res.setHeader("content-disposition", 'attachment; filename="requests.csv"');
    res.setHeader("cache-control", "no-store");
    res.write(`${CSV_COLUMNS.join(",")}\n`);
    let cursor = "";
    try {
      do {
        const page = await ledger.ListUsage({ ...f, limit: 200, cursor });
        const text = page.records.map(csvRow).join("");
        if (text && !res.write(text)) await new Promise((ok) => res.once("drain", ok));
        cursor = page.next_cursor;
      } while (cursor && !res.destroyed);
      res.end();
    } catch {
      // Headers are out: a broken export ends without its last line, which a reader notices.
      res.destroy();
    }
  });
  // The ledger answers only the member's organization: another organization's request is as absent as one that never was.
  read("/api/requests/:id", async (req, res) => memberRecord(await ledger.GetUsage({ request_id: String(req.params.id), org_id: signed(res).member.org_id, wait_ms: 0 })));
  // Keys: the control-plane reads the session itself and enforces the organization and the role
  // (creating and revoking: admin) — a viewer calling this API directly gets its 403.
  read("/api/keys", async (_req, res) => {
    // Each key's spend and last use over 30 days, from the hourly rollups (one index range for the organization).
    const to = Math.floor(Date.now() / 3_600_000) * 3_600_000 + 3_600_000;
    const [{ keys }, series] = await Promise.all([
      control.ConsoleListKeys({ token: signed(res).token }),
      ledger.SpendSeries({ org_id: signed(res).member.org_id, from_ms: to - 30 * DAY_MS, to_ms: to, bucket: "hour", group_by: "key" }),
    ]);
    const use = new Map<string, { spent: number; last: number }>();
    for (const p of series.points) {
      const u = use.get(p.group) ?? { spent: 0, last: 0 };
      u.spent += p.cost_minor;
      u.last = Math.max(u.last, p.bucket_start_ms);
      use.set(p.group, u);
    }
    return { data: keys.map((k) => ({ ...k, spent_30d_minor: use.get(k.id)?.spent ?? 0, last_used_hour_ms: use.get(k.id)?.last || null })) };
  });
  write(
    "/api/keys",
    async (req, res) => {
      const body = (req.body ?? {}) as { name?: unknown; routes?: unknown; models?: unknown; rpm_limit?: unknown; tpm_limit?: unknown };
      const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
      const limit = (v: unknown, name: string) => {
        if (v === undefined || v === null || v === "") return 0;
        if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new GatewayError("invalid_request", `${name} must be a non-negative integer (0: no limit of its own)`);
        return v;
      };
      const created = await control.ConsoleCreateKey({
        token: signed(res).token,
        name: text(body.name),
        routes: list(body.routes),
        models: list(body.models),
        rpm_limit: limit(body.rpm_limit, "rpm_limit"),
        tpm_limit: limit(body.tpm_limit, "tpm_limit"),
      });
      return { key: created.key, secret: created.secret };
    },
    "16kb",
  );
  // Guardrail rules and how often each fired (by outcome) in the last 7 days.
  read("/api/guardrails", async (_req, res) => {
    const now = Date.now();
    const g = await control.ConsoleGetGuardrails({ token: signed(res).token });
    // Without rules there is nothing to count (and no record carries an outcome): the ledger is not asked.
    const counts = g.rules > 0 ? await ledger.GuardrailCounts({ org_id: signed(res).member.org_id, from_ms: now - 7 * DAY_MS, to_ms: now + 1 }) : { counts: [] };
    return { version: g.version, rules: JSON.parse(g.rules_json || "[]") as unknown[], counts: counts.counts, window_days: 7 };
  });
  write("/api/keys/:id/revoke", async (req, res) => ({ key: await control.ConsoleRevokeKey({ token: signed(res).token, key_id: String(req.params.id) }) }));
  // Budget: the monthly cap and this month's spend; set by admins and the billing role (the control-plane enforces it).
  read("/api/budget", async (_req, res) => {
    const [org, credits] = await Promise.all([control.ConsoleGetOrg({ token: signed(res).token }), ledger.GetCredits({ org_id: signed(res).member.org_id })]);
    return { monthly_budget_minor: org.monthly_budget_minor, month_spent_minor: credits.month_spent_minor };
  });
  write("/api/budget", async (req, res) => {
    const v = (req.body as { monthly_budget_minor?: unknown } | undefined)?.monthly_budget_minor;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new GatewayError("invalid_request", "monthly_budget_minor must be a non-negative integer (0 removes the cap).");
    const org = await control.ConsoleSetBudget({ token: signed(res).token, monthly_budget_minor: v });
    return { monthly_budget_minor: org.monthly_budget_minor };
  });
  read("/api/models", async (_req, res) => ({ data: (await control.ConsoleListModels({ token: signed(res).token })).models }));
  // Members: the control-plane reads the session and enforces the role (invite and remove: admin).
  read("/api/members", async (_req, res) => ({ data: (await control.ConsoleListMembers({ token: signed(res).token })).members }));
  write("/api/members", async (req, res) => {
    const body = (req.body ?? {}) as { email?: unknown; role?: unknown };
    const role = body.role === "admin" || body.role === "billing" ? body.role : "viewer";
    const link = await control.ConsoleInviteMember({ token: signed(res).token, email: text(body.email), role });
    // The link is shown once, to the admin who hands it over.
    return { member: link.member, signin_url: `${linkOrigin()}/signin?token=${link.token}`, expires_at_ms: link.expires_at_ms };
  });
  write("/api/members/remove", async (req, res) => ({ member: await control.ConsoleRemoveMember({ token: signed(res).token, email: text((req.body as { email?: unknown } | undefined)?.email) }) }));
  write(
    "/api/signout",
    async (_req, res) => {
      await control.EndConsoleSession({ token: signed(res).token });
      res.setHeader("set-cookie", `${SESSION_COOKIE}=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0${config.secureCookies ? "; Secure" : ""}`);
      return { signed_out: true };
    },
    "4kb",
    "any",
  );
  // The audit log: an admin reads its organization's, an operator everyone's (the control-plane decides which).
  read(
    "/api/audit",
    async (req, res) => {
      const q = req.query as Record<string, string | undefined>;
      const page = await control.ConsoleListAudit({ token: signed(res).token, org: q.org ?? "", cursor: q.cursor ?? "", limit: Math.min(Number.parseInt(q.limit ?? "50", 10) || 50, 200) });
      return { data: page.entries.map(({ detail_json, ...e }) => ({ ...e, detail: JSON.parse(detail_json) as unknown })), next_cursor: page.next_cursor || null };
    },
    "any",
  );
  mountOperator({ read, write, control, ledger, signed, breakerThreshold: config.breakerThreshold ?? 5, breakerCooldownMs: config.breakerCooldownMs ?? 30_000 });
  app.use((_req, res) => res.status(404).json({ error: { message: "Not found.", code: "not_found" } }));

  return new Promise((resolve) => {
    const server: Server = app.listen(config.port, config.host, () => {
      const addr = server.address();
      const port = typeof addr === "object" && addr ? addr.port : config.port;
      listening = `http://${config.host}:${port}`;
      resolve({
        url: `http://${config.host}:${port}`,
        port,
        close: () =>
          new Promise<void>((done) => {
            control.close();
            ledger.close();
            server.closeAllConnections();
            server.close(() => done());
          }),
      });
    });
  });
}

/** A CSRF key for a single replica when none is configured. */
export const randomSecret = () => randomBytes(32).toString("base64url");
