import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from "node:crypto";
import type { Kysely } from "@gateway/db";
import type { ControlDb } from "../db/schema.js";

/** A webhook signing secret: `whsec_` and 43 URL-safe characters (32 random bytes). */
export const WEBHOOK_SECRET_PREFIX = "whsec_";
/** Marks a sealed secret: `gws1.` + base64url(iv ‖ tag ‖ ciphertext). */
const SEALED = "gws1.";
const IV_BYTES = 12;
const TAG_BYTES = 16;
/** Per-organization keys kept (HKDF is cheap; this only spares it per delivery). */
const MAX_KEYS = 10_000;

export const newWebhookSecret = (): string => WEBHOOK_SECRET_PREFIX + randomBytes(32).toString("base64url");
/** What may be shown of a secret after it was made: `whsec_` and four characters. */
export const secretDisplayPrefix = (secret: string): string => secret.slice(0, WEBHOOK_SECRET_PREFIX.length + 4);

/**
 * Webhook signing secrets sealed at rest (docs/security.md): AES-256-GCM under a key derived by
 * HKDF-SHA256 from CONTROL_PLANE_SECRETS_KEY and the organization id, with the organization id as
 * additional data, as the data-plane seals stored Responses (responses/seal.ts). A database dump
 * holds no secret; a sealed value moved to another organization's row does not open.
 */
export class SecretSealer {
  private readonly keys = new Map<string, Buffer>();

  constructor(private readonly secretsKey: string) {}

  private keyOf(orgId: string): Buffer {
    let k = this.keys.get(orgId);
    if (k) return k;
    k = Buffer.from(hkdfSync("sha256", this.secretsKey, "gateway-webhook-secrets-v1", orgId, 32));
    if (this.keys.size >= MAX_KEYS) this.keys.delete(this.keys.keys().next().value!);
    this.keys.set(orgId, k);
    return k;
  }

  seal(orgId: string, secret: string): string {
    const iv = randomBytes(IV_BYTES);
    const c = createCipheriv("aes-256-gcm", this.keyOf(orgId), iv);
    c.setAAD(Buffer.from(`webhook:${orgId}`));
    const ct = Buffer.concat([c.update(secret, "utf8"), c.final()]);
    return SEALED + Buffer.concat([iv, c.getAuthTag(), ct]).toString("base64url");
  }

  /** The secret, or undefined when the value was not sealed for this organization under this key. */
  open(orgId: string, sealed: string): string | undefined {
    if (!sealed.startsWith(SEALED)) return undefined;
    const raw = Buffer.from(sealed.slice(SEALED.length), "base64url");
    if (raw.length < IV_BYTES + TAG_BYTES) return undefined;
    try {
      const d = createDecipheriv("aes-256-gcm", this.keyOf(orgId), raw.subarray(0, IV_BYTES));
      d.setAAD(Buffer.from(`webhook:${orgId}`));
      d.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      return Buffer.concat([d.update(raw.subarray(IV_BYTES + TAG_BYTES)), d.final()]).toString("utf8");
    } catch {
      return undefined;
    }
  }
}

/** The control-plane's configuration cannot serve the database it found: exit 2, the message for the operator. */
export class SecretsKeyError extends Error {}

/**
 * At start: webhooks whose secrets are sealed in the database need the key they were sealed with.
 * Without it every delivery would fail for a day and then be given up, so the service refuses to
 * start instead, saying what to set; a key that does not open the newest secret is refused too.
 */
export async function checkSecretsKey(db: Kysely<ControlDb>, sealer: SecretSealer | undefined): Promise<void> {
  const newest = await db
    .selectFrom("org_alert_settings")
    .select(["org_id", "webhook_secret_sealed"])
    .where("webhook_secret_sealed", "is not", null)
    .orderBy("secret_created_at", "desc")
    .limit(1)
    .executeTakeFirst();
  if (!newest) return;
  if (!sealer) {
    const { n } = await db
      .selectFrom("org_alert_settings")
      .select((eb) => eb.fn.countAll<string>().as("n"))
      .where("webhook_secret_sealed", "is not", null)
      .executeTakeFirstOrThrow();
    throw new SecretsKeyError(
      `control-plane: ${n} organization(s) have an alert webhook whose signing secret is sealed in the database, but CONTROL_PLANE_SECRETS_KEY is not set: ` +
        "set it to the key those secrets were sealed with (docs/configuration.md). Without it no webhook could be signed.",
    );
  }
  if (sealer.open(newest.org_id, newest.webhook_secret_sealed!) === undefined) {
    throw new SecretsKeyError(
      `control-plane: CONTROL_PLANE_SECRETS_KEY does not open the webhook signing secret of ${newest.org_id} sealed in the database: ` +
        "it is not the key the secrets were sealed with. Set that key (every replica the same); a lost key means rotating every organization's secret (docs/operations.md).",
    );
  }
}
