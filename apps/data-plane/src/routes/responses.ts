import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { modelId, parseBody, positiveInt } from "../http/body.js";
import { locals } from "../http/request-context.js";
import { runChat } from "../pipeline/chat.js";
import { responsesShape } from "../pipeline/client-shape.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import type { ChatRequestBody } from "../providers/index.js";
import { newId, responsesToChat } from "../translate/responses.js";
import { chatTexts } from "../guardrails/index.js";
import { promptTexts } from "./chat-body.js";

/** The Responses fields the gateway relies on; the translation checks the items themselves. */
const ResponsesBody = z.looseObject({
  model: modelId,
  input: z.union([z.string(), z.array(z.unknown())], { error: "'input' is required: a string or an array of input items." }),
  instructions: z.string({ error: "'instructions' must be a string." }).nullish(),
  stream: z.boolean({ error: "'stream' must be a boolean." }).nullish(),
  max_output_tokens: positiveInt("max_output_tokens"),
  store: z.boolean({ error: "'store' must be a boolean." }).nullish(),
  previous_response_id: z.string({ error: "'previous_response_id' must be a string." }).nullish(),
  metadata: z.record(z.string(), z.string(), { error: "'metadata' must be an object of strings." }).nullish(),
});

interface ResponsesRequest {
  raw: Record<string, unknown>;
  /** The same request in the chat shape every provider adapter takes. */
  chat: ChatRequestBody;
  id: string;
}

/**
 * POST /v1/responses: OpenAI's Responses API for every chat model, translated to each provider's
 * chat shape and back (answers and the event stream). Responses are not stored yet: `store: true`
 * is answered with `store: false` in the Response, `previous_response_id` is refused (400), and
 * GET/DELETE /v1/responses/{id} answer 404.
 */
export const responsesRoute: RouteSpec<ResponsesRequest, "chat"> = {
  route: "responses",
  capability: "chat",
  parse: (raw) => {
    const body = parseBody(ResponsesBody, raw) as Record<string, unknown>;
    if (typeof body.previous_response_id === "string" && body.previous_response_id) {
      throw new GatewayError("invalid_request", "'previous_response_id' is not supported yet: this gateway does not store responses. Send the whole conversation in 'input'.", {
        param: "previous_response_id",
      });
    }
    return { raw: body, chat: responsesToChat(body), id: newId("resp") };
  },
  admission: ({ raw, chat }, res) => {
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(raw));
    return {
      modelId: chat.model,
      promptTokensBound: (m) => chatPromptBound(m, bodyBytes, mediaParts(chat.messages)),
      requestedOutput: (raw.max_output_tokens as number | null | undefined) ?? undefined,
      outputParam: "max_output_tokens",
      promptTexts: () => promptTexts(chat),
      guard: { stream: chat.stream === true, texts: () => chatTexts(chat.messages) },
    };
  },
  execute: (ctx, req, res, { body, model, planned, reservation }) =>
    runChat(ctx, req, res, {
      body: body.chat,
      model,
      planned,
      reservation,
      bodyBytes: locals(res).bodyBytes ?? 0,
      shape: responsesShape({ id: body.id, createdAt: Math.floor(locals(res).startedAt / 1000), model: model.id, request: body.raw }),
    }),
};

export const responses = (ctx: DataPlaneContext) => handle(ctx, responsesRoute);

/** GET and DELETE /v1/responses/{id}: nothing is stored, so every id is unknown (404). */
export const storedResponse = (_ctx: DataPlaneContext) => (req: Request, _res: Response) => {
  throw new GatewayError("not_found", `No response with id '${String(req.params.responseId)}': this gateway does not store responses (send 'store: false' or keep the output yourself).`);
};
