import { createHash, createHmac, createSecretKey, timingSafeEqual, type KeyObject } from "node:crypto";

/**
 * Usage messages signed by the data-plane (docs/security.md, "Usage events"): an HMAC-SHA256 of the
 * message's bytes under a key the data-planes and the ledgers share and NATS never sees, in the
 * header `Gateway-Usage-Sig: v1 <key id> <base64url mac>`. A NATS credential alone can publish on
 * `usage.v1.>` but cannot sign: the ledger sets such a message aside instead of billing it.
 *
 * Why a shared key and not a signature the ledger checks with a public key: Ed25519 costs this
 * machine 35 µs to sign and 104 µs to verify per message (0.85–3.6 KB), most of what applying an
 * event costs; the MAC costs 4–7 µs on each side (docs/performance.md, "Usage signatures").
 */
export const USAGE_SIGNATURE_HEADER = "Gateway-Usage-Sig";

/** A signing key and its id (the first 8 hex characters of its SHA-256: which key, never the key). */
export interface UsageKey {
  id: string;
  /** A KeyObject: an HMAC keyed by a raw Buffer costs 20 µs a message here, by a KeyObject 5. */
  key: KeyObject;
}

export function usageKey(secret: string): UsageKey {
  const raw = Buffer.from(secret, "utf8");
  return { id: createHash("sha256").update(raw).digest("hex").slice(0, 8), key: createSecretKey(raw) };
}

export function signUsage(k: UsageKey, data: string | Uint8Array): string {
  return `v1 ${k.id} ${createHmac("sha256", k.key).update(data).digest("base64url")}`;
}

/** Whether `header` signs `data` under one of `keys` (by id): `unsigned` without a header, `forged` when it does not verify. */
export function verifyUsage(header: string | undefined, data: Uint8Array, keys: ReadonlyMap<string, UsageKey>): "ok" | "unsigned" | "forged" {
  if (!header) return "unsigned";
  const [v, id, mac] = header.split(" ");
  const k = v === "v1" && id ? keys.get(id) : undefined;
  if (!k || !mac) return "forged";
  const want = createHmac("sha256", k.key).update(data).digest();
  const got = Buffer.from(mac, "base64url");
  return got.length === want.length && timingSafeEqual(got, want) ? "ok" : "forged";
}
