import { startConsole, type ConsoleConfig, type ConsoleServer } from "@gateway/console";
import type { Stack } from "./stack.ts";
import type { AnyBody } from "./api.ts";

/** The `console` caller's tokens a stack is started with (StackOptions.serviceEnv) when a test runs the console. */
export const CONSOLE_TOKENS = { control: "test-console-control-token-0123", ledger: "test-console-ledger-token-0123" };
export const consoleServiceEnv = { CONTROL_PLANE_CONSOLE_TOKEN: CONSOLE_TOKENS.control, LEDGER_CONSOLE_TOKEN: CONSOLE_TOKENS.ledger };

/** The console's server over a running stack, on a free port. */
export function startConsoleFor(stack: Stack, extra: Partial<ConsoleConfig> = {}): Promise<ConsoleServer> {
  return startConsole({
    host: "127.0.0.1",
    port: 0,
    controlPlaneAddr: `127.0.0.1:${stack.control.grpcPort}`,
    ledgerAddr: `127.0.0.1:${stack.ledger().grpcPort}`,
    controlPlaneToken: CONSOLE_TOKENS.control,
    ledgerToken: CONSOLE_TOKENS.ledger,
    secret: "test-console-csrf-secret",
    secureCookies: false,
    ...extra,
  });
}

export type ConsoleRole = "admin" | "billing" | "viewer" | "operator";
export interface ConsoleSession {
  /** `gw_console=…`, for the Cookie header. */
  cookie: string;
  /** The whole Set-Cookie header the sign-in answered. */
  setCookie: string;
  csrf: string;
}

/**
 * A person using the console over HTTP: signs in by a fresh one-time link (the GET shows the
 * button, the same-origin POST uses the token), then GETs and same-origin POSTs with the session's
 * cookie and CSRF token.
 */
export function consoleUser(stack: Stack, server: ConsoleServer) {
  const get = async (path: string, cookie?: string): Promise<{ status: number; body: AnyBody; headers: Headers }> => {
    const r = await fetch(`${server.url}${path}`, { redirect: "manual", headers: cookie ? { cookie } : {} });
    const text = await r.text();
    return { status: r.status, body: r.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text, headers: r.headers };
  };
  const post = (path: string, cookie: string, csrf: string, body: unknown = {}) =>
    fetch(`${server.url}${path}`, {
      method: "POST",
      headers: { cookie, "x-csrf-token": csrf, "content-type": "application/json", origin: server.url, "sec-fetch-site": "same-origin" },
      body: JSON.stringify(body),
    });
  const signIn = async (orgId: string, role: ConsoleRole = "admin", email = `${role}-${orgId || "gateway"}@example.com`): Promise<ConsoleSession> => {
    const link = await stack.admin.CreateSignInLink({ org: role === "operator" ? "" : orgId, email, role });
    const page = await fetch(`${server.url}/signin?token=${link.token}`);
    if (page.status !== 200) throw new Error(`sign-in page: ${page.status}`);
    const r = await fetch(`${server.url}/signin`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: server.url, "sec-fetch-site": "same-origin" },
      body: `token=${encodeURIComponent(link.token)}`,
    });
    if (r.status !== 303 || r.headers.get("location") !== "/") throw new Error(`sign-in: ${r.status} to ${r.headers.get("location")}`);
    const setCookie = r.headers.get("set-cookie") ?? "";
    const cookie = setCookie.split(";")[0]!;
    return { cookie, setCookie, csrf: (await get("/api/session", cookie)).body.csrf_token as string };
  };
  return { get, post, signIn };
}
