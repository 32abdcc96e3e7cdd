import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { locals } from "../http/request-context.js";
import { admit } from "../admission/admit.js";
import { runChat } from "../pipeline/chat.js";
import { openAIShape } from "../pipeline/client-shape.js";
import { promptTexts, validateChatBody } from "./chat-body.js";
import { chatTexts } from "../guardrails/index.js";

export function chatCompletions(ctx: DataPlaneContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = validateChatBody(req.body);
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(body));
    const { model, planned, reservation } = await admit(ctx, res, {
      route: "chat",
      capability: "chat",
      modelId: body.model,
      promptTokensBound: (m) => chatPromptBound(m, bodyBytes, mediaParts(body.messages)),
      requestedOutput: body.max_completion_tokens ?? body.max_tokens ?? undefined,
      choices: typeof body.n === "number" ? body.n : 1,
      outputParam: body.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens",
      promptTexts: () => promptTexts(body),
      guard: { stream: body.stream === true, texts: () => chatTexts(body.messages) },
    });
    try {
      await runChat(ctx, req, res, { body, model, planned, reservation, bodyBytes, shape: openAIShape(body, model.id) });
    } finally {
      reservation.settle(0); // no-op when already settled with the actual cost
    }
  };
}
