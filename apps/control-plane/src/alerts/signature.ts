import { createHmac, timingSafeEqual } from "node:crypto";

/** The signature scheme's version, the prefix of each signature in Gateway-Signature. */
const SCHEME = "v1";
/** How old a delivery's timestamp may be when a receiver checks it (docs/billing.md, "Alerts"), seconds. */
export const SIGNATURE_TOLERANCE_S = 300;

/** `v1=` and the hex HMAC-SHA256 of `<timestamp>.<body>` under the organization's whole secret (`whsec_…`, as UTF-8). */
export function signatureHeader(secret: string, timestampS: number, body: string): string {
  return `${SCHEME}=${createHmac("sha256", secret).update(`${timestampS}.${body}`).digest("hex")}`;
}

/**
 * What a receiver does with a delivery (the recipe of docs/billing.md, in code): the timestamp is
 * recent, and one of the header's `v1=` signatures is the HMAC of `<timestamp>.<raw body>`, compared
 * in constant time. Exported for the tests, which verify as a receiver would.
 */
export function verifySignature(secret: string, header: string, timestamp: string, body: string, nowS = Math.floor(Date.now() / 1000)): boolean {
  if (!/^\d{1,12}$/.test(timestamp) || Math.abs(nowS - Number(timestamp)) > SIGNATURE_TOLERANCE_S) return false;
  const expected = Buffer.from(signatureHeader(secret, Number(timestamp), body).slice(SCHEME.length + 1), "hex");
  return header
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part.startsWith(`${SCHEME}=`))
    .some((part) => {
      const given = Buffer.from(part.slice(SCHEME.length + 1), "hex");
      return given.length === expected.length && timingSafeEqual(given, expected);
    });
}
