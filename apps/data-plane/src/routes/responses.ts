import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import { modelId, parseBody, positiveInt } from "../http/body.js";
import { locals } from "../http/request-context.js";
import { keyAllowsRoute } from "../catalog/visibility.js";
import { responsesShape } from "../pipeline/client-shape.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import { adapterFor, type ChatRequestBody } from "../providers/index.js";
import { assistantTurn, historyItems, inputItems, responsesToChat } from "../translate/responses.js";
import { newId } from "../translate/responses-output.js";
import { THINKING_STATE, responsesToMessages } from "../translate/responses-to-messages.js";
import { TextCollector } from "../guardrails/index.js";
import { runChat, type Via } from "../pipeline/chat.js";
import { responsesFromMessagesShape, responsesNativeShape } from "../pipeline/client-shape.js";
import { messageTexts, responseTexts } from "../pipeline/native-shape.js";
import { messagesHeaders } from "./messages.js";
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
  /** The request; the earlier turns of `previous_response_id` are put in front of its `input` once read. */
  raw: Record<string, unknown>;
  /** The same request in the chat shape (checked at parse; rebuilt after guardrails, which may mask `raw`). */
  chat: ChatRequestBody;
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

/** The texts of a Responses request where guardrails may rewrite them: instructions, input messages, tool outputs. */
export function responsesTexts(raw: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  if (typeof raw.instructions === "string") t.add(raw.instructions, (v) => (raw.instructions = v));
  if (typeof raw.input === "string") {
    t.add(raw.input, (v) => (raw.input = v));
    return t;
  }
  for (const item of raw.input as Array<Record<string, unknown>>) {
    if (typeof item.content === "string") t.add(item.content, (v) => (item.content = v));
    else if (Array.isArray(item.content)) for (const p of item.content as Array<Record<string, unknown>>) if (p && typeof p.text === "string") t.add(p.text, (v) => (p.text = v));
    if (item.type === "function_call_output") {
      if (typeof item.output === "string") t.add(item.output, (v) => (item.output = v));
      // Text parts (checked at parse): rewritten in place, so every provider gets the masked text.
      else if (Array.isArray(item.output)) for (const p of item.output as Array<Record<string, unknown>>) t.add(p.text, (v) => (p.text = v));
    }
  }
  return t;
}

/**
 * The body a native Responses provider gets: the client's, with the earlier turns already in `input`,
 * `store: false` and no `previous_response_id` (the gateway keeps conversations, so any provider
 * can continue them), without reasoning items another provider's thinking encoded, and with an
 * output limit: the client's, or the catalog's (what the hold covered), never the provider's own.
 */
function nativeBody(raw: Record<string, unknown>, maxOutput: number): ChatRequestBody {
  const { previous_response_id: _previous, ...body } = raw;
  const input = Array.isArray(raw.input)
    ? (raw.input as Array<Record<string, unknown>>).filter((i) => !(i.type === "reasoning" && typeof i.encrypted_content === "string" && i.encrypted_content.startsWith(THINKING_STATE)))
    : raw.input;
  const limit = typeof raw.max_output_tokens === "number" || maxOutput <= 0 ? {} : { max_output_tokens: maxOutput };
  return { ...body, ...limit, input, store: false } as unknown as ChatRequestBody;
}

/**
 * POST /v1/responses: OpenAI's Responses API for every chat model. To a provider that speaks it
 * (OpenAI) the request goes natively; to one that speaks the Messages API (Anthropic) it is
 * translated to Messages directly; to the others, to chat completions; answers and streams come
 * back as Responses. Responses are stored by default (`store`, in the RESPONSES bucket, before the
 * answer is released; `store: false` in the answer when that failed), and `previous_response_id`
 * continues a stored conversation of the same organization: its turns come before the new input.
 */
export const responsesRoute: RouteSpec<ResponsesRequest, "chat"> = {
  route: "responses",
  capability: "chat",
  parse: (raw) => {
    const body = parseBody(ResponsesBody, raw) as Record<string, unknown>;
    const chat = responsesToChat(body);
    const instructionMessages = typeof body.instructions === "string" && body.instructions ? 1 : 0;
    return { raw: body, chat, id: newId("resp"), instructionMessages, historyBytes: 0 };
  },
  admission: (r, res, ctx) => {
    const { raw } = r;
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(raw));
    const previous = typeof raw.previous_response_id === "string" && raw.previous_response_id ? raw.previous_response_id : undefined;
    return {
      modelId: r.chat.model,
      // Called after prepare: covers the earlier turns sent with the new input.
      promptTokensBound: (m) => chatPromptBound(m, bodyBytes + r.historyBytes, mediaParts(r.chat.messages)),
      requestedOutput: (raw.max_output_tokens as number | null | undefined) ?? undefined,
      outputParam: "max_output_tokens",
      promptTexts: () => promptTexts(r.chat),
      guard: { stream: raw.stream === true, texts: () => responsesTexts(raw) },
      ...(previous
        ? {
            prepare: async () => {
              const found = await ctx.responses.get(locals(res).key!.org_id, previous).catch((err: unknown) => {
                throw storeAway(err);
              });
              if (!found.found) throw notStored(previous, true);
              const history = found.record.messages;
              r.historyBytes = Buffer.byteLength(JSON.stringify(history));
              const input = typeof raw.input === "string" ? [{ type: "message", role: "user", content: raw.input }] : (raw.input as unknown[]);
              raw.input = [...historyItems(history), ...input];
              r.chat = responsesToChat(raw);
            },
          }
        : {}),
    };
  },
  execute: (ctx, req, res, { body, model, planned, reservation }) => {
    const orgId = locals(res).key!.org_id;
    const { raw } = body;
    // After the input guardrails, which may have masked `raw`: every shape is built from it.
    const chat = responsesToChat(raw);
    const keep =
      raw.store === false
        ? undefined
        : (response: Record<string, unknown>) =>
            ctx.responses.put({ org_id: orgId, response: { ...response, store: true }, messages: [...chat.messages.slice(body.instructionMessages), assistantTurn(response)] });
    const echo = { id: body.id, createdAt: Math.floor(locals(res).startedAt / 1000), model: model.id, request: raw };
    const translated = responsesShape(echo, keep);
    const via = (p: (typeof planned)[number]): Via => {
      const kind = adapterFor(p.target.provider.kind);
      if (kind.responses) return { adapter: kind.responses, body: nativeBody(raw, model.max_output_tokens), shape: responsesNativeShape(raw, keep), answerTexts: responseTexts };
      if (kind.messages) {
        const { body: messagesBody, structured } = responsesToMessages(raw, model.max_output_tokens);
        return { adapter: kind.messages(messagesHeaders(req)), body: messagesBody, shape: responsesFromMessagesShape(echo, structured, keep), answerTexts: messageTexts };
      }
      return { adapter: p.adapter, body: chat, shape: translated };
    };
    return runChat(ctx, req, res, { body: chat, model, planned, reservation, bodyBytes: locals(res).bodyBytes ?? 0, shape: translated, via });
  },
};

export const responses = (ctx: DataPlaneContext) => handle(ctx, responsesRoute);

/** The stored responses belong to the `responses` route: a key scoped to other routes may not read or delete them. */
function requireScope(res: Response): void {
  if (!keyAllowsRoute(locals(res).key!, "responses")) {
    throw new GatewayError("route_not_allowed", "This API key may not call the responses route.", { action: "contact_org_admin" });
  }
}

/** GET /v1/responses/{id}: the organization's stored Response object. */
export const storedResponse = (ctx: DataPlaneContext) => async (req: Request, res: Response) => {
  requireScope(res);
  const id = String(req.params.responseId);
  const found = await ctx.responses.get(locals(res).key!.org_id, id).catch((err: unknown) => {
    throw storeAway(err);
  });
  if (!found.found) throw notStored(id, false);
  res.status(200).json(found.record.response);
};

/** DELETE /v1/responses/{id}: removes the organization's stored response. */
export const deleteStoredResponse = (ctx: DataPlaneContext) => async (req: Request, res: Response) => {
  requireScope(res);
  const id = String(req.params.responseId);
  const deleted = await ctx.responses.delete(locals(res).key!.org_id, id).catch((err: unknown) => {
    throw storeAway(err);
  });
  if (!deleted) throw notStored(id, false);
  res.status(200).json({ id, object: "response", deleted: true });
};

const ListQuery = z.object({
  limit: z.coerce.number({ error: "'limit' must be an integer from 1 to 100." }).int().min(1).max(100).default(20),
  order: z.enum(["asc", "desc"], { error: "'order' must be 'asc' or 'desc'." }).default("desc"),
  after: z.string().optional(),
});

/** GET /v1/responses/{id}/input_items: the stored response's input items (earlier turns included), a cursor page. */
export const storedInputItems = (ctx: DataPlaneContext) => async (req: Request, res: Response) => {
  requireScope(res);
  const id = String(req.params.responseId);
  const q = ListQuery.safeParse(req.query);
  if (!q.success) {
    const issue = q.error.issues[0]!;
    throw new GatewayError("invalid_request", issue.message, { param: String(issue.path[0] ?? "") });
  }
  const found = await ctx.responses.get(locals(res).key!.org_id, id).catch((err: unknown) => {
    throw storeAway(err);
  });
  if (!found.found) throw notStored(id, false);
  const { limit, order, after } = q.data;
  const all = inputItems(id, found.record.messages);
  if (order === "desc") all.reverse();
  // An unknown cursor lists nothing (not the first page again).
  const at = after === undefined ? -1 : all.findIndex((item) => item.id === after);
  const start = after === undefined ? 0 : at === -1 ? all.length : at + 1;
  const data = all.slice(start, start + limit);
  res.status(200).json({ object: "list", data, first_id: data[0]?.id ?? null, last_id: data.at(-1)?.id ?? null, has_more: start + limit < all.length });
};
