import { randomBytes, sign, verify, type KeyObject } from "node:crypto";

/**
 * An operator's top-up grant (docs/security.md, "Top-ups"): the control-plane signs it with its
 * Ed25519 key after checking the operator's console session; the ledger checks it with the public
 * key before crediting. It names everything the top-up may be — organization, amount, idempotency key
 * — and lives a minute; the idempotency key makes it good for one top-up only. Holding the console's
 * ledger token alone credits nothing.
 */
export interface TopUpGrantClaims {
  v: 1;
  /** The grant's id, recorded with the top-up. */
  gid: string;
  org_id: string;
  amount_minor: number;
  idempotency_key: string;
  /** Who: the operator's email. */
  by: string;
  /** Unix ms after which the ledger refuses it. */
  exp_ms: number;
}

export const TOP_UP_GRANT_TTL_MS = 60_000;

export function signTopUpGrant(key: KeyObject, claims: Omit<TopUpGrantClaims, "v" | "gid">): { grant: string; claims: TopUpGrantClaims } {
  return signGrant(key, { v: 1, gid: `grant_${randomBytes(12).toString("base64url")}`, ...claims });
}

/** The grant's claims when `key` signed it, it has not expired and it is a top-up's; otherwise why not. */
export function verifyTopUpGrant(key: KeyObject, grant: string, now = Date.now()): TopUpGrantClaims | string {
  const claims = verifyGrant<TopUpGrantClaims & { kind?: unknown }>(key, grant, now);
  if (typeof claims !== "string" && claims.kind !== undefined) return "the grant is not a top-up's";
  return claims;
}

/** `<base64url claims>.<base64url Ed25519 signature>` of the claims as JSON. */
export function signGrant<T extends { v: 1; gid: string; exp_ms: number }>(key: KeyObject, claims: T): { grant: string; claims: T } {
  const payload = Buffer.from(JSON.stringify(claims));
  return { grant: `${payload.toString("base64url")}.${sign(null, payload, key).toString("base64url")}`, claims };
}

/** A grant's claims when `key` signed it and it has not expired; otherwise why not. */
export function verifyGrant<T extends { v: 1; gid: string; exp_ms: number }>(key: KeyObject, grant: string, now = Date.now()): T | string {
  const [p, s] = grant.split(".");
  if (!p || !s) return "the grant is malformed";
  const payload = Buffer.from(p, "base64url");
  let ok = false;
  try {
    ok = verify(null, payload, key, Buffer.from(s, "base64url"));
  } catch {
    ok = false;
  }
  if (!ok) return "the grant's signature does not verify";
  let claims: T;
  try {
    claims = JSON.parse(payload.toString("utf8")) as T;
  } catch {
    return "the grant is malformed";
  }
  if (claims.v !== 1 || typeof claims.gid !== "string" || typeof claims.exp_ms !== "number") return "the grant is malformed";
  if (claims.exp_ms < now) return "the grant has expired";
  return claims;
}

/**
 * An operator's trace lookup grant (docs/console.md, "Trace lookup"): the control-plane signs it with
 * the same key after checking the operator's console session and auditing the lookup; the ledger's
 * LookupTrace reads the one request it names, whatever its organization. A minute long. Holding the
 * console's ledger token alone reads no other organization's record.
 */
export interface TraceGrantClaims {
  v: 1;
  kind: "trace_lookup";
  gid: string;
  request_id: string;
  /** Who: the operator's email. */
  by: string;
  exp_ms: number;
}

export const TRACE_GRANT_TTL_MS = 60_000;

export function signTraceGrant(key: KeyObject, claims: Pick<TraceGrantClaims, "request_id" | "by" | "exp_ms">): { grant: string; claims: TraceGrantClaims } {
  return signGrant(key, { v: 1, kind: "trace_lookup", gid: `grant_${randomBytes(12).toString("base64url")}`, ...claims });
}

/** The claims when `key` signed a trace lookup grant that has not expired; otherwise why not. */
export function verifyTraceGrant(key: KeyObject, grant: string, now = Date.now()): TraceGrantClaims | string {
  const claims = verifyGrant<TraceGrantClaims>(key, grant, now);
  if (typeof claims !== "string" && (claims.kind !== "trace_lookup" || typeof claims.request_id !== "string")) return "the grant is not a trace lookup's";
  return claims;
}
