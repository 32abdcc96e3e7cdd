import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { locals } from "../http/request-context.js";
import { admit } from "../admission/admit.js";
import type { ChatRequestBody } from "../providers/index.js";
import { plan, run } from "../routing/chat-router.js";
import { openAIShape } from "../routing/client-shape.js";
import { validateChatBody } from "./chat-body.js";
import { chatTexts } from "../guardrails/index.js";

export function promptTexts(body: ChatRequestBody): string[] {
  const out: string[] = [];
  for (const m of body.messages as Array<{ content?: unknown }>) {
    const c = m.content;
    if (typeof c === "string") out.push(c);
    else if (Array.isArray(c)) for (const p of c) if (p && typeof p === "object" && typeof (p as { text?: unknown }).text === "string") out.push((p as { text: string }).text);
  }
  return out;
}

export function chatCompletions(ctx: DataPlaneContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = validateChatBody(req.body);
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(body));
    const requestedOut = body.max_completion_tokens ?? body.max_tokens ?? undefined;
    const admission = await admit(ctx, res, {
      route: "chat",
      modelId: body.model,
      promptTokensBound: (model) => chatPromptBound(model, bodyBytes, mediaParts(body.messages)),
      requestedOutput: requestedOut,
      choices: typeof body.n === "number" ? body.n : 1,
      outputParam: body.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens",
      promptTexts: () => promptTexts(body),
      guard: { stream: body.stream === true, texts: () => chatTexts(body.messages) },
    });
    const { model, reservation } = admission;
    try {
      const attempts = plan(ctx, model);
      if (attempts.length === 0) {
        throw new GatewayError("model_unavailable", `The model '${model.id}' has no configured provider deployment on this gateway.`);
      }
      await run(ctx, req, res, body, model, attempts, reservation, bodyBytes, admission.recordTokens, openAIShape(body, model.id));
    } finally {
      reservation.settle(0); // no-op when already settled with the actual cost
    }
  };
}

