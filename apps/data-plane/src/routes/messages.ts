import { z } from "zod";
import { modelId, parseBody } from "../http/body.js";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { locals } from "../http/request-context.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import type { ChatRequestBody } from "../providers/index.js";
import { runChat } from "../pipeline/chat.js";
import { anthropicShape } from "../pipeline/client-shape.js";
import { anthropicToOpenAI } from "../translate/anthropic-to-openai.js";
import { promptTexts } from "./chat-body.js";
import { chatTexts } from "../guardrails/index.js";

/** The Messages fields the gateway relies on (the reference API requires max_tokens); the rest passes through. */
const MessagesBody = z.looseObject({
  model: modelId,
  max_tokens: z.number({ error: "'max_tokens' is required: a positive integer." }).int("'max_tokens' is required: a positive integer.").min(1, "'max_tokens' is required: a positive integer."),
  messages: z.array(z.unknown(), { error: "'messages' is required: a non-empty array of messages." }).min(1, "'messages' is required: a non-empty array of messages."),
  stream: z.boolean({ error: "'stream' must be a boolean." }).optional(),
  stop_sequences: z.array(z.string(), { error: "'stop_sequences' must be an array of strings." }).optional(),
});

interface MessagesRequest {
  raw: Record<string, unknown>;
  /** The same request in the chat shape every provider adapter takes. */
  chat: ChatRequestBody;
}

/**
 * POST /v1/messages: the Anthropic Messages API, for any chat model. Requests are translated to the
 * provider's shape and answers (streams event by event) back to the Messages shape.
 */
export const messagesRoute: RouteSpec<MessagesRequest, "chat"> = {
  route: "messages",
  capability: "chat",
  parse: (raw) => {
    const body = parseBody(MessagesBody, raw) as Record<string, unknown>;
    return { raw: body, chat: anthropicToOpenAI(body) };
  },
  admission: ({ raw, chat }, res) => {
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(raw));
    return {
      modelId: chat.model,
      promptTokensBound: (m) => chatPromptBound(m, bodyBytes, mediaParts(raw.messages, raw.system)),
      requestedOutput: raw.max_tokens as number,
      outputParam: "max_tokens",
      promptTexts: () => promptTexts(chat),
      guard: { stream: chat.stream === true, texts: () => chatTexts(chat.messages) },
    };
  },
  execute: (ctx, req, res, { body, model, planned, reservation }) =>
    runChat(ctx, req, res, { body: body.chat, model, planned, reservation, bodyBytes: locals(res).bodyBytes ?? 0, shape: anthropicShape(model.id) }),
};

export const messages = (ctx: DataPlaneContext) => handle(ctx, messagesRoute);
