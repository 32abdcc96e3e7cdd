import { randomBytes } from "node:crypto";

/** Type-prefixed random id (`lease_…`, `top_…`). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("base64url")}`;
}
