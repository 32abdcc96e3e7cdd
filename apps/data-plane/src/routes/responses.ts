import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import type { Request, Response } from "express";
import type { KeyContext, Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts, searchResultTokens, type MediaParts } from "../credits/bounds.js";
import { maxTokenCostMinor } from "@gateway/pricing";
import { modelId, parseBody, positiveInt } from "../http/body.js";
import { messagesHeaders } from "../http/headers.js";
import type { Authenticated } from "../http/request-context.js";
import { requireRoute } from "../catalog/visibility.js";
import { serveChat } from "../pipeline/chat.js";
import { responsesSession } from "../routing/session-key.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import type { ChatRequestBody, ResponsesRequestBody } from "../providers/index.js";
import { assistantTurn, historyItems, inputItems, pricedSearches, responsesToChat, webSearchBound } from "../translate/responses.js";
import { toolNames } from "../translate/namespaces.js";
import { newId } from "../translate/responses-output.js";
import { responsesRequestTexts, textsOf } from "../translate/texts.js";

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
  /** The request as validated; admission's `prepare` answers a copy with the earlier turns of `previous_response_id` in `withHistory`. */
  raw: ResponsesRequestBody;
  /** `raw` in the chat shape (translate/responses.ts), made once when the body was checked. */
  chat: ChatRequestBody;
  /** The request with the earlier turns in front of its input (the request itself when it continues nothing). */
  withHistory: ResponsesRequestBody;
  id: string;
  /** Leading chat messages that are this request's `instructions` (not carried over to a continuation). */
  instructionMessages: number;
  /** Bytes of the earlier turns read for `previous_response_id`: part of the prompt bound. */
  historyBytes: number;
}

const notStored = (id: string, previous: boolean) =>
  new GatewayError("not_found", previous ? `Previous response with id '${id}' not found.` : `Response with id '${id}' not found.`, previous ? { param: "previous_response_id" } : {});

const storeAway = (err: unknown) =>
  new GatewayError("service_unavailable", `Stored responses are unavailable right now (${err instanceof Error ? err.message : String(err)}); retry shortly.`, { retry_after_s: 1 });

/**
 * POST /v1/responses: OpenAI's Responses API for every chat model. To a provider that speaks it
 * (OpenAI) the request goes natively; to one that speaks the Messages API (Anthropic) it is
 * translated to Messages directly; to the others, to chat completions (translate/pairs/); answers
 * and streams come back as Responses. Responses are stored by default (`store`, in the RESPONSES
 * bucket, before the answer is released; `store: false` in the answer when that failed), and
 * `previous_response_id` continues a stored conversation of the same organization: its turns come
 * before the new input.
 */
export const responsesRoute: RouteSpec<ResponsesRequest, "chat"> = {
  route: "responses",
  capability: "chat",
  parse: (input) => {
    const raw = parseBody(ResponsesBody, input) as ResponsesRequestBody;
    // Checks every item (and the search limit) now, a 400 naming it, before anything is held; the
    // chat shape it builds is the one deployments reached through chat get (translated once).
    const chat = responsesToChat(raw);
    webSearchBound(raw);
    const instructionMessages = typeof raw.instructions === "string" && raw.instructions ? 1 : 0;
    return { raw, chat, withHistory: raw, id: newId("resp"), instructionMessages, historyBytes: 0 };
  },
  admission: (r, state, ctx, req) => {
    const { raw } = r;
    const bodyBytes = state.bodyBytes ?? Buffer.byteLength(JSON.stringify(raw));
    const previous = typeof raw.previous_response_id === "string" && raw.previous_response_id ? raw.previous_response_id : undefined;
    // Found once per body (the history and the masks make new ones): files are read for their pages and seconds.
    let media: { of: ResponsesRequestBody; parts: MediaParts } | undefined;
    const mediaOf = (p: ResponsesRequest) => (media?.of === p.withHistory ? media.parts : (media = { of: p.withHistory, parts: mediaParts(p.withHistory.input) }).parts);
    return {
      modelId: raw.model,
      // Called after prepare: covers the earlier turns sent with the new input.
      promptTokensBound: (m, p, sentBytes) => chatPromptBound(m, sentBytes ?? bodyBytes + p.historyBytes, mediaOf(p), "input"),
      imageTokens: (m, p) => mediaOf(p).images * m.max_input_tokens_per_image,
      audio: (p) => ({ input: mediaOf(p).audio > 0, output: false }),
      // Every search the web search tool may run (max_tool_calls), at the model's price per search.
      // Their results enter the prompt: the model's tokens per search, at the dearest prompt price.
      ...(webSearchBound(raw) > 0
        ? {
            perUseCostMinor: (m: Model) => {
              const { searches } = pricedSearches(raw, m);
              return searches > 0 ? searches * (m.web_search_price_minor ?? 0) + maxTokenCostMinor(searches * searchResultTokens(m), 0, m) : 0;
            },
          }
        : {}),
      // Searches one by one, for a stream held in tranches: one held at admission, each further one as it is seen run.
      ...(webSearchBound(raw) > 0
        ? {
            perUseUnits: (m: Model) => {
              // A model that prices no search has none run (the tool is left out): nothing per use.
              const { searches } = pricedSearches(raw, m);
              return { count: searches, unitMinor: searches > 0 ? (m.web_search_price_minor ?? 0) + maxTokenCostMinor(searchResultTokens(m), 0, m) : 0 };
            },
          }
        : {}),
      offersTools: Array.isArray(raw.tools) && raw.tools.length > 0,
      requestedOutput: raw.max_output_tokens ?? undefined,
      outputParam: "max_output_tokens",
      // The request in each of its shapes (as sent, in the chat shape, with its earlier turns).
      clampOutput: (p, limit) => ({
        ...p,
        raw: { ...p.raw, max_output_tokens: limit },
        chat: { ...p.chat, ...(p.chat.max_tokens != null ? { max_tokens: limit } : {}), ...(p.chat.max_completion_tokens != null ? { max_completion_tokens: limit } : {}) },
        withHistory: { ...p.withHistory, max_output_tokens: limit },
      }),
      promptTexts: (p) => textsOf(responsesRequestTexts(p.withHistory)),
      guard: { stream: raw.stream === true, texts: (p) => responsesRequestTexts(p.withHistory).map((masked) => ({ ...p, withHistory: masked })) },
      // Streamed: held in tranches when its output bound exceeds one (pipeline/tranches.ts).
      tranches: raw.stream === true,
      // Not streamed but held in tranches: asked of the provider as a stream, the answer read whole.
      streamed: (p) => ({ ...p, withHistory: { ...p.withHistory, stream: true } }),
      session: (p) => responsesSession(p.raw, req),
      ...(previous
        ? {
            // From the request as admission has it (its output limit clamped to the model's, if it was).
            prepare: async (p) => {
              const history = (await stored(ctx, state.key, previous, true)).messages;
              const input = typeof p.raw.input === "string" ? [{ type: "message", role: "user", content: p.raw.input }] : p.raw.input;
              return { ...p, withHistory: { ...p.raw, input: [...historyItems(history), ...input] }, historyBytes: Buffer.byteLength(JSON.stringify(history)) };
            },
          }
        : {}),
      // After the input guardrails, which may have masked the texts: every shape is built from it.
      client: {
        api: "responses",
        request: (p, model) => {
          const raw = p.withHistory;
          const orgId = state.key.org_id;
          // The chat shape, for deployments reached through chat: the one parse made, unless history or a mask changed the body.
          let chat: ChatRequestBody | undefined = raw === p.raw ? p.chat : undefined;
          const chatBody = () => (chat ??= responsesToChat(raw));
          const keep =
            raw.store === false
              ? undefined
              : (response: Record<string, unknown>) =>
                  ctx.responses.put({ org_id: orgId, response: { ...response, store: true }, messages: [...chatBody().messages.slice(p.instructionMessages), assistantTurn(response)] });
          const echo = { id: p.id, createdAt: Math.floor(state.startedAt / 1000), model: model.id, request: raw, names: toolNames(raw.tools) };
          return { body: raw, chat: chatBody, echo, keep, headers: messagesHeaders(req), model };
        },
      },
    };
  },
  serve: (ctx, call) => serveChat(ctx, call, { routes: call.routed, stream: call.body.withHistory.stream === true }),
};

export const responses = (ctx: DataPlaneContext) => handle(ctx, responsesRoute);

/**
 * GET /v1/responses without an id and without `Upgrade: websocket`: the WebSocket mode asked for
 * without the upgrade (routes/responses-websocket.ts serves the upgrade itself): a 426.
 */
export const responsesWebSocket = async () => {
  throw new GatewayError(
    "websocket_not_supported",
    "GET /v1/responses is the Responses API's WebSocket mode: connect with 'Upgrade: websocket', or send POST /v1/responses (with stream: true for events).",
  );
};

/** The organization's stored response `id` (the one a request continues: `previous`); 404 when there is none. */
async function stored(ctx: DataPlaneContext, key: KeyContext, id: string, previous = false) {
  const found = await ctx.responses.get(key.org_id, id).catch((err: unknown) => {
    throw storeAway(err);
  });
  if (!found.found) throw notStored(id, previous);
  return found.record;
}

/** GET /v1/responses/{id}: the organization's stored Response object. */
export const storedResponse =
  (ctx: DataPlaneContext) =>
  async (req: Request, res: Response, { key }: Authenticated) => {
    // The stored responses belong to the `responses` route.
    requireRoute(key, "responses");
    res.status(200).json((await stored(ctx, key, String(req.params.responseId))).response);
  };

/** DELETE /v1/responses/{id}: removes the organization's stored response. */
export const deleteStoredResponse =
  (ctx: DataPlaneContext) =>
  async (req: Request, res: Response, { key }: Authenticated) => {
    requireRoute(key, "responses");
    const id = String(req.params.responseId);
    const deleted = await ctx.responses.delete(key.org_id, id).catch((err: unknown) => {
      throw storeAway(err);
    });
    if (!deleted) throw notStored(id, false);
    res.status(200).json({ id, object: "response", deleted: true });
  };

const LIMIT = "'limit' must be an integer from 1 to 100.";
const ListQuery = z.object({
  limit: z.coerce.number({ error: LIMIT }).int(LIMIT).min(1, LIMIT).max(100, LIMIT).default(20),
  order: z.enum(["asc", "desc"], { error: "'order' must be 'asc' or 'desc'." }).default("desc"),
  after: z.string().optional(),
});

/** GET /v1/responses/{id}/input_items: the stored response's input items (earlier turns included), a cursor page. */
export const storedInputItems =
  (ctx: DataPlaneContext) =>
  async (req: Request, res: Response, { key }: Authenticated) => {
    requireRoute(key, "responses");
    const id = String(req.params.responseId);
    const { limit, order, after } = parseBody(ListQuery, req.query);
    const all = inputItems(id, (await stored(ctx, key, id)).messages);
    if (order === "desc") all.reverse();
    // An unknown cursor lists nothing (not the first page again).
    const at = after === undefined ? -1 : all.findIndex((item) => item.id === after);
    const start = after === undefined ? 0 : at === -1 ? all.length : at + 1;
    const data = all.slice(start, start + limit);
    res.status(200).json({ object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < all.length });
  };
