import { z } from "zod";
import type { ChatRequestBody } from "../providers/types.js";
import { modelId, parseBody, positiveInt } from "../http/body.js";

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
});

/** Checks the fields the gateway itself relies on; everything else is passed to the provider unchanged. */
export function validateChatBody(raw: unknown): ChatRequestBody {
  return parseBody(ChatBody, raw) as ChatRequestBody;
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
