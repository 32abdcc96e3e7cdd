import type { Request } from "express";
import { PENDING_COOKIE } from "./oidc.js";

/** The session cookie's name (docs/console.md, "Sessions"). */
export const SESSION_COOKIE = "gw_console";

/** A cookie's value as the request carries it, if it does. */
export function cookieOf(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return decodeURIComponent(v.join("="));
  }
  return undefined;
}

/** Every cookie the console sets is HttpOnly; `secure` adds the Secure flag (behind TLS). */
const setCookie = (name: string, value: string, sameSite: "Strict" | "Lax", path: string, maxAgeS: number, secure: boolean) =>
  `${name}=${value}; HttpOnly; SameSite=${sameSite}; Path=${path}; Max-Age=${maxAgeS}${secure ? "; Secure" : ""}`;

/** The session cookie: HttpOnly, SameSite=Strict, the whole console, until the session's absolute expiry (Secure behind TLS). */
export const sessionCookie = (token: string, expiresAtMs: number, secure: boolean) =>
  setCookie(SESSION_COOKIE, encodeURIComponent(token), "Strict", "/", Math.floor((expiresAtMs - Date.now()) / 1000), secure);

/** Removes the session cookie (sign-out). */
export const endSessionCookie = (secure: boolean) => setCookie(SESSION_COOKIE, "", "Strict", "/", 0, secure);

/** The OpenID Connect attempt's cookie: SameSite=Lax (the issuer's redirect back is a navigation from its site), path /oidc, ten minutes. */
export const pendingCookie = (sealed: string, secure: boolean) => setCookie(PENDING_COOKIE, sealed, "Lax", "/oidc", 600, secure);

/** Removes the attempt's cookie: the callback spends it, whatever the outcome. */
export const endPendingCookie = (secure: boolean) => setCookie(PENDING_COOKIE, "", "Lax", "/oidc", 0, secure);
