import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { locals } from "../http/request-context.js";
import { runChat } from "../pipeline/chat.js";
import { openAIShape } from "../pipeline/client-shape.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import type { ChatRequestBody } from "../providers/index.js";
import { promptTexts, validateChatBody } from "./chat-body.js";
import { chatTexts } from "../guardrails/index.js";

/** POST /v1/chat/completions, for every chat model, streams included. */
export const chatCompletionsRoute: RouteSpec<ChatRequestBody, "chat"> = {
  route: "chat",
  capability: "chat",
  parse: validateChatBody,
  admission: (body, res) => {
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(body));
    return {
      modelId: body.model,
      promptTokensBound: (m) => chatPromptBound(m, bodyBytes, mediaParts(body.messages)),
      requestedOutput: body.max_completion_tokens ?? body.max_tokens ?? undefined,
      choices: typeof body.n === "number" ? body.n : 1,
      outputParam: body.max_completion_tokens != null ? "max_completion_tokens" : "max_tokens",
      promptTexts: () => promptTexts(body),
      guard: { stream: body.stream === true, texts: () => chatTexts(body.messages) },
    };
  },
  execute: (ctx, req, res, { body, model, planned, reservation }) =>
    runChat(ctx, req, res, { body, model, planned, reservation, bodyBytes: locals(res).bodyBytes ?? 0, shape: openAIShape(body, model.id) }),
};

export const chatCompletions = (ctx: DataPlaneContext) => handle(ctx, chatCompletionsRoute);
