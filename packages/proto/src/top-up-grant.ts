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
  const full: TopUpGrantClaims = { v: 1, gid: `grant_${randomBytes(12).toString("base64url")}`, ...claims };
  const payload = Buffer.from(JSON.stringify(full));
  return { grant: `${payload.toString("base64url")}.${sign(null, payload, key).toString("base64url")}`, claims: full };
}

/** The grant's claims when `key` signed it and it has not expired; otherwise why not. */
export function verifyTopUpGrant(key: KeyObject, grant: string, now = Date.now()): TopUpGrantClaims | string {
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
  let claims: TopUpGrantClaims;
  try {
    claims = JSON.parse(payload.toString("utf8")) as TopUpGrantClaims;
  } catch {
    return "the grant is malformed";
  }
  if (claims.v !== 1 || typeof claims.gid !== "string" || typeof claims.exp_ms !== "number") return "the grant is malformed";
  if (claims.exp_ms < now) return "the grant has expired";
  return claims;
}
