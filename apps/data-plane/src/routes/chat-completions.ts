import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { serveChat } from "../pipeline/chat.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import { choicesOf, type ChatRequestBody } from "../providers/index.js";
import { askedOutput } from "../translate/output-limit.js";
import { chatRequestTexts, textsOf } from "../translate/texts.js";
import { validateChatBody } from "./chat-body.js";
import { chatSession } from "../routing/session-key.js";
import { invalidParam } from "@gateway/errors";

/** The request asks for spoken output: `modalities` naming audio, or an `audio` output setting. */
function asksForAudio(body: ChatRequestBody): boolean {
  const b = body as ChatRequestBody & { modalities?: unknown; audio?: unknown };
  return (Array.isArray(b.modalities) && b.modalities.includes("audio")) || (b.audio !== undefined && b.audio !== null);
}

/** POST /v1/chat/completions, for every chat model, streams included. */
export const chatCompletionsRoute: RouteSpec<ChatRequestBody, "chat"> = {
  route: "chat",
  capability: "chat",
  parse: validateChatBody,
  admission: (body, state, _ctx, req) => {
    const bodyBytes = state.bodyBytes ?? Buffer.byteLength(JSON.stringify(body));
    const media = mediaParts(body.messages);
    const audioOut = asksForAudio(body);
    return {
      modelId: body.model,
      promptTokensBound: (m, _body, sentBytes) => {
        if (audioOut && m.audio_output_price_minor_per_mtok === undefined) {
          throw invalidParam(body.audio !== undefined ? "audio" : "modalities", `Audio output is not available on model '${m.id}' (the catalog prices no audio for it).`);
        }
        return chatPromptBound(m, sentBytes ?? bodyBytes, media);
      },
      imageTokens: (m) => media.images * m.max_input_tokens_per_image,
      audio: () => ({ input: media.audio > 0, output: audioOut }),
      offersTools: Array.isArray(body.tools) && body.tools.length > 0,
      // Both limit fields set: the larger is held, and the one limit the provider gets.
      requestedOutput: askedOutput(body),
      choices: choicesOf(body),
      outputParam: (body.max_completion_tokens ?? 0) >= (body.max_tokens ?? 0) ? "max_completion_tokens" : "max_tokens",
      // Every limit field the request set, at the model's limit.
      clampOutput: (b, limit) => ({ ...b, ...(b.max_tokens != null ? { max_tokens: limit } : {}), ...(b.max_completion_tokens != null ? { max_completion_tokens: limit } : {}) }),
      promptTexts: (b) => textsOf(chatRequestTexts(b)),
      guard: { stream: body.stream === true, texts: chatRequestTexts },
      // Streamed: held in tranches when its output bound exceeds one (pipeline/tranches.ts).
      tranches: body.stream === true,
      // Not streamed but held in tranches: asked of the provider as a stream, the answer read whole.
      // Spoken output stays whole: providers stream audio only as raw PCM, whatever format was asked.
      streamed: (b) => (asksForAudio(b) ? undefined : { ...b, stream: true }),
      session: (b) => chatSession(b, req),
      // As the input guardrails left it (a masked copy when a mask applied).
      client: { api: "chat", request: (b, model) => ({ body: b, model }) },
    };
  },
  serve: (ctx, call) => serveChat(ctx, call, { routes: call.routed, stream: call.body.stream === true }),
};

export const chatCompletions = (ctx: DataPlaneContext) => handle(ctx, chatCompletionsRoute);
