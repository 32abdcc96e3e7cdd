import { GatewayError } from "@gateway/errors";
import type { ChatRequestBody } from "../providers/types.js";

const bad = (param: string, message: string) => new GatewayError("invalid_request", message, { param });

function optionalPositiveInt(body: Record<string, unknown>, field: string): void {
  const v = body[field];
  if (v === undefined || v === null) return;
  if (typeof v !== "number" || !Number.isInteger(v) || v < 1) throw bad(field, `'${field}' must be a positive integer.`);
}

/**
 * Checks the fields the gateway itself relies on; everything else is passed to the provider
 * unchanged, as the reference API would treat it.
 */
export function validateChatBody(raw: unknown): ChatRequestBody {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) {
    throw new GatewayError("invalid_request", "Request body must be a JSON object (Content-Type: application/json).");
  }
  const body = raw as Record<string, unknown>;
  if (typeof body.model !== "string" || body.model.length === 0 || body.model.length > 256) {
    throw bad("model", "'model' is required: a public model id (string, 1 to 256 characters).");
  }
  if (!Array.isArray(body.messages) || body.messages.length === 0) {
    throw bad("messages", "'messages' is required: a non-empty array of messages.");
  }
  for (let i = 0; i < body.messages.length; i++) {
    const m = body.messages[i] as { role?: unknown } | null;
    if (!m || typeof m !== "object" || typeof m.role !== "string") {
      throw bad(`messages[${i}]`, `'messages[${i}]' must be an object with a string 'role'.`);
    }
  }
  if (body.stream !== undefined && body.stream !== null && typeof body.stream !== "boolean") {
    throw bad("stream", "'stream' must be a boolean.");
  }
  if (body.stream_options !== undefined && body.stream_options !== null && (typeof body.stream_options !== "object" || Array.isArray(body.stream_options))) {
    throw bad("stream_options", "'stream_options' must be an object.");
  }
  optionalPositiveInt(body, "max_tokens");
  optionalPositiveInt(body, "max_completion_tokens");
  optionalPositiveInt(body, "n");
  if (typeof body.n === "number" && body.n > 128) throw bad("n", "'n' must be at most 128.");
  return body as ChatRequestBody;
}

/** The text parts of chat messages, for the context-window pre-check. */
export function promptTexts(body: ChatRequestBody): string[] {
  const out: string[] = [];
  for (const m of body.messages as Array<{ content?: unknown }>) {
    const c = m.content;
    if (typeof c === "string") out.push(c);
    else if (Array.isArray(c)) for (const p of c) if (p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string") out.push((p as { text: string }).text);
  }
  return out;
}
