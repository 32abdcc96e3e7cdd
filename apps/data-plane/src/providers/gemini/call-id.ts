import { randomBytes } from "node:crypto";

/**
 * Tool call ids for Gemini's function calls, which carry the call's thought signature.
 *
 * Gemini 3 refuses a conversation whose function calls come back without the `thoughtSignature`
 * it put on them, and the gateway keeps no state between requests: the signature has to travel
 * with the call through the client. The one field every client shape returns untouched with a
 * tool call (chat `tool_calls[].id`, Messages `tool_use.id`, Responses `call_id`) is its id, so a
 * signed call's id is `call_<24 hex>_ts_<signature in base64url>` (only `[A-Za-z0-9_-]`, which
 * every provider accepts in an id); an unsigned one is `call_<24 hex>`.
 */

const SIGNED = /^call_[0-9a-f]{24}_ts_([A-Za-z0-9_-]+)$/;
/** Signatures are bytes, sent as standard base64 in the JSON. */
const BASE64 = /^[A-Za-z0-9+/]+={0,2}$/;

export function newCallId(signature: string | undefined): string {
  const id = `call_${randomBytes(12).toString("hex")}`;
  // Not padded base64 (never seen from Gemini): not carried, and the call goes back unsigned.
  if (!signature || !BASE64.test(signature) || signature.length % 4 !== 0) return id;
  return `${id}_ts_${signature.replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "")}`;
}

/** The thought signature a call id carries, exactly as Gemini sent it. */
export function signatureOf(id: unknown): string | undefined {
  const m = typeof id === "string" ? SIGNED.exec(id) : null;
  if (!m) return undefined;
  const b64 = m[1]!.replaceAll("-", "+").replaceAll("_", "/");
  return b64 + "=".repeat((4 - (b64.length % 4)) % 4);
}
