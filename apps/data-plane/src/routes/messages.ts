import type { Request, Response } from "express";
import { z } from "zod";
import { modelId, parseBody } from "../http/body.js";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { locals } from "../http/request-context.js";
import { admit } from "../admission/admit.js";
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

/**
 * POST /v1/messages: the Anthropic Messages API, for any chat model. Requests are translated to the
 * provider's shape and answers (streams event by event) back to the Messages shape.
 */
export function messages(ctx: DataPlaneContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const raw = parseBody(MessagesBody, req.body) as Record<string, unknown>;
    const body = anthropicToOpenAI(raw);
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(raw));
    const { model, planned, reservation } = await admit(ctx, res, {
      route: "messages",
      capability: "chat",
      modelId: body.model,
      promptTokensBound: (m) => chatPromptBound(m, bodyBytes, mediaParts(raw.messages, raw.system)),
      requestedOutput: raw.max_tokens as number,
      outputParam: "max_tokens",
      promptTexts: () => promptTexts(body),
      guard: { stream: body.stream === true, texts: () => chatTexts(body.messages) },
    });
    try {
      await runChat(ctx, req, res, { body, model, planned, reservation, bodyBytes, shape: anthropicShape(model.id) });
    } finally {
      reservation.settle(0);
    }
  };
}
