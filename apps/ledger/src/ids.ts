import { randomFillSync } from "node:crypto";

/** Random bytes drawn from the CSPRNG 4 KiB at a time: one system call per 341 ids, not per id (a posting per applied batch). */
const entropy = Buffer.allocUnsafe(4092);
let entropyAt = entropy.length;

/** Type-prefixed random id (`lease_…`, `top_…`, `post_…`): 12 random bytes, base64url. */
export function newId(prefix: string): string {
  if (entropyAt + 12 > entropy.length) {
    randomFillSync(entropy);
    entropyAt = 0;
  }
  entropyAt += 12;
  return `${prefix}_${entropy.toString("base64url", entropyAt - 12, entropyAt)}`;
}
