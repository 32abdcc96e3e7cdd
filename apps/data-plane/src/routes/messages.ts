import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { locals } from "../http/request-context.js";
import { admit } from "../admission/admit.js";
import { runChat } from "../pipeline/chat.js";
import { anthropicShape } from "../pipeline/client-shape.js";
import { anthropicToOpenAI } from "../translate/anthropic-to-openai.js";
import { promptTexts } from "./chat-body.js";
import { chatTexts } from "../guardrails/index.js";

const bad = (param: string, message: string) => new GatewayError("invalid_request", message, { param });

/** Checks the Messages fields the gateway relies on (the reference API requires max_tokens). */
function validateMessagesBody(raw: unknown): Record<string, unknown> {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new GatewayError("invalid_request", "Request body must be a JSON object (Content-Type: application/json).");
  const b = raw as Record<string, unknown>;
  if (typeof b.model !== "string" || b.model.length === 0 || b.model.length > 256) throw bad("model", "'model' is required: a public model id (string, 1 to 256 characters).");
  if (typeof b.max_tokens !== "number" || !Number.isInteger(b.max_tokens) || b.max_tokens < 1) throw bad("max_tokens", "'max_tokens' is required: a positive integer.");
  if (!Array.isArray(b.messages) || b.messages.length === 0) throw bad("messages", "'messages' is required: a non-empty array of messages.");
  if (b.stream !== undefined && typeof b.stream !== "boolean") throw bad("stream", "'stream' must be a boolean.");
  if (b.stop_sequences !== undefined && (!Array.isArray(b.stop_sequences) || !b.stop_sequences.every((x) => typeof x === "string"))) {
    throw bad("stop_sequences", "'stop_sequences' must be an array of strings.");
  }
  return b;
}

/**
 * POST /v1/messages: the Anthropic Messages API, for any chat model. Requests are translated to the
 * provider's shape and answers (streams event by event) back to the Messages shape.
 */
export function messages(ctx: DataPlaneContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const raw = validateMessagesBody(req.body);
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
