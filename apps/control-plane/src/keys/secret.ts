import { createHash, randomBytes } from "node:crypto";

export const KEY_PREFIX = "sk-gateway-";

/** A new secret: the prefix and 43 URL-safe characters (32 random bytes). */
export function newSecret(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** What may be shown of a key after creation: `sk-gateway-` and four characters. */
export function displayPrefix(secret: string): string {
  return secret.slice(0, KEY_PREFIX.length + 4);
}

export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}
