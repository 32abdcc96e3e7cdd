import { z } from "zod";
import type { ChatRequestBody } from "../providers/types.js";
import { SERVICE_TIERS, SERVICE_TIER_REFUSAL, acceptedServiceTier, modelId, parseBody, positiveInt } from "../http/body.js";
import { invalidParam } from "@gateway/errors";
import { isObject } from "../providers/types.js";

/** The fields of a chat completions request the gateway relies on; the rest passes through. */
export const ChatBody = z.looseObject({
  model: modelId,
  messages: z
    .array(z.looseObject({ role: z.string({ error: "Each message must be an object with a string 'role'." }) }), { error: "'messages' is required: a non-empty array of messages." })
    .min(1, "'messages' is required: a non-empty array of messages."),
  stream: z.boolean({ error: "'stream' must be a boolean." }).nullish(),
  stream_options: z.looseObject({ include_usage: z.boolean({ error: "'stream_options.include_usage' must be a boolean." }).optional() }, { error: "'stream_options' must be an object." }).nullish(),
  max_tokens: positiveInt("max_tokens"),
  max_completion_tokens: positiveInt("max_completion_tokens"),
  n: positiveInt("n", 128),
  service_tier: z.enum(SERVICE_TIERS, { error: SERVICE_TIER_REFUSAL }).nullish(),
});

const absentOr = (v: unknown, ok: (v: unknown) => boolean) => v === undefined || v === null || ok(v);
const positive = (max: number) => (v: unknown) => typeof v === "number" && Number.isSafeInteger(v) && v >= 1 && v <= max;
const tokens = positive(Number.MAX_SAFE_INTEGER);
const choices = positive(128);
const boolean = (v: unknown) => typeof v === "boolean";
const streamOptions = (v: unknown) => isObject(v) && (v.include_usage === undefined || typeof v.include_usage === "boolean");

/**
 * The common case, checked without the schema's copy of the body: true only when `ChatBody`
 * certainly accepts `raw` (never more lenient; anything unusual goes through the schema, which
 * also words the error). A chat body is validated on every request.
 */
export function plainChatBody(raw: unknown): raw is ChatRequestBody {
  if (!isObject(raw)) return false;
  const { model, messages, stream, stream_options: so, max_tokens, max_completion_tokens, n, service_tier } = raw;
  if (typeof model !== "string" || model.length < 1 || model.length > 256) return false;
  if (!Array.isArray(messages) || messages.length === 0) return false;
  for (const m of messages) if (!isObject(m) || typeof m.role !== "string") return false;
  return (
    absentOr(stream, boolean) &&
    absentOr(so, streamOptions) &&
    absentOr(max_tokens, tokens) &&
    absentOr(max_completion_tokens, tokens) &&
    absentOr(n, choices) &&
    absentOr(service_tier, acceptedServiceTier)
  );
}

/** Checks the fields the gateway itself relies on; everything else is passed to the provider unchanged. */
export function validateChatBody(raw: unknown): ChatRequestBody {
  const body = plainChatBody(raw) ? raw : (parseBody(ChatBody, raw) as ChatRequestBody);
  refuseFileIds(body.messages);
  return body;
}

/**
 * A file part that names a file id is refused: the provider would read it from the gateway's own
 * account (another organization's upload, as far as it knows) and bill tokens the prompt bound never
 * saw. Files go inline (`file_data`), where the bound counts their bytes.
 */
function refuseFileIds(messages: unknown[]): void {
  messages.forEach((m, i) => {
    const content = (m as { content?: unknown }).content;
    if (!Array.isArray(content)) return;
    content.forEach((p: unknown, j) => {
      const file = p && typeof p === "object" && (p as { type?: unknown }).type === "file" ? (p as { file?: { file_id?: unknown } }).file : undefined;
      if (file && file.file_id !== undefined && file.file_id !== null) {
        const param = `messages[${i}].content[${j}].file.file_id`;
        throw invalidParam(param, `'${param}': file ids are not supported (the file would be read from the gateway's provider account and billed unseen); send the file inline as file_data.`);
      }
    });
  });
}
