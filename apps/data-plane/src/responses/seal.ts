import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";

/** Marks a sealed record: `gw1.` + base64url(iv ‖ tag ‖ ciphertext). */
const PREFIX = "gw1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Per-organization keys kept, most recently derived last (HKDF is cheap; this only spares it per request). */
const MAX_KEYS = 10_000;

/**
 * Stored Responses sealed per organization (docs/security.md): AES-256-GCM under a key derived by
 * HKDF-SHA256 from DATA_PLANE_RESPONSES_SECRET and the organization id, with the record's key
 * (`<org_id>.<response_id>`) as additional data. NATS never sees the secret: a NATS credential can
 * read no record and forge none, nor move one to another organization's or response's key.
 */
export class ResponseSealer {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly secret: string) {}

  private keyOf(orgId: string): Buffer {
    let k = this.keys.get(orgId);
    if (k) return k;
    k = Buffer.from(hkdfSync("sha256", this.secret, "gateway-responses-v1", orgId, 32));
    if (this.keys.size >= MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(orgId, k);
    return k;
  }

  seal(orgId: string, key: string, plaintext: string): string {
    const iv = randomBytes(IV_BYTES);
    const c = createCipheriv("aes-256-gcm", this.keyOf(orgId), iv);
    c.setAAD(Buffer.from(key));
    const ct = Buffer.concat([c.update(plaintext, "utf8"), c.final()]);
    return PREFIX + Buffer.concat([iv, c.getAuthTag(), ct]).toString("base64url");
  }

  /** The plaintext, or undefined when the record is not sealed for this organization and key (forged, moved, or another secret's). */
  open(orgId: string, key: string, sealed: string): string | undefined {
    if (!sealed.startsWith(PREFIX)) return undefined;
    const raw = Buffer.from(sealed.slice(PREFIX.length), "base64url");
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const d = createDecipheriv("aes-256-gcm", this.keyOf(orgId), raw.subarray(0, IV_BYTES));
      d.setAAD(Buffer.from(key));
      d.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([d.update(raw.subarray(IV_BYTES + TAG_BYTES)), d.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }

  /** Whether a stored value is sealed at all (a record of a release before sealing is not). */
  static isSealed(value: string): boolean {
    return value.startsWith(PREFIX);
  }
}
