import type { Request } from "express";
import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import { modelId, parseBody } from "../http/body.js";
import type { DataPlaneContext } from "../context.js";
import { chatPromptBound, mediaParts } from "../credits/bounds.js";
import type { Model } from "@gateway/proto";
import { locals } from "../http/request-context.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import { adapterFor, type ChatRequestBody, type MessagesHeaders } from "../providers/index.js";
import { runChat, type Via } from "../pipeline/chat.js";
import { anthropicShape } from "../pipeline/client-shape.js";
import { anthropicNativeShape, messageTexts } from "../pipeline/native-shape.js";
import { anthropicToOpenAI } from "../translate/anthropic-to-openai.js";
import { TextCollector } from "../guardrails/index.js";

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
  /** The most web searches the request may run (its web search tools' max_uses), each billed per search. */
  webSearches: number;
  /** Why the body cannot be translated to the chat shape (thinking, top_k …): only native deployments can take it. */
  untranslatable: GatewayError | undefined;
}

/** The text of a Messages body (system, text blocks, tool results), where guardrails may rewrite it. */
export function messagesTexts(raw: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  const blocks = (owner: { content?: unknown } | Record<string, unknown>, field: string) => {
    const o = owner as Record<string, unknown>;
    const c = o[field];
    if (typeof c === "string") return t.add(c, (v) => (o[field] = v));
    if (!Array.isArray(c)) return;
    for (const b of c as Array<Record<string, unknown>>) {
      if (!b || typeof b !== "object") continue;
      if (typeof b.text === "string") t.add(b.text, (v) => (b.text = v));
      else if (b.type === "tool_result") blocks(b, "content");
    }
  };
  blocks(raw, "system");
  for (const m of raw.messages as Array<Record<string, unknown>>) if (m && typeof m === "object") blocks(m, "content");
  return t;
}

/**
 * Server tools the provider bills per use beside the tokens. Web search (per search) is offered on
 * models the catalog prices it for: each web search tool's `max_uses` (set to
 * DEFAULT_WEB_SEARCHES when the request sets none) bounds the searches the hold covers. Code
 * execution (per container-hour) has no price and is refused. Server tools billed as tokens only
 * (web fetch) and client tools go through.
 */
const WEB_SEARCH = /^web_search_/;
const CODE_EXECUTION = /^code_execution_/;
export const DEFAULT_WEB_SEARCHES = 5;

/** The most web searches the request's tools allow; refuses code execution and a bad max_uses. */
function billedServerTools(tools: unknown): number {
  if (!Array.isArray(tools)) return 0;
  let searches = 0;
  tools.forEach((t: unknown, i) => {
    if (!t || typeof t !== "object") return;
    const tool = t as Record<string, unknown>;
    const type = tool.type;
    if (typeof type !== "string") return;
    if (CODE_EXECUTION.test(type)) {
      throw new GatewayError("invalid_request", `'tools[${i}]': the server tool '${type}' is not supported: the provider bills it per container-hour, which the gateway has no price or hold for.`, { param: `tools[${i}]` });
    }
    if (!WEB_SEARCH.test(type)) return;
    if (tool.max_uses === undefined || tool.max_uses === null) tool.max_uses = DEFAULT_WEB_SEARCHES;
    const uses = tool.max_uses;
    if (typeof uses !== "number" || !Number.isSafeInteger(uses) || uses < 1 || uses > 1_000) {
      throw new GatewayError("invalid_request", `'tools[${i}].max_uses' must be an integer from 1 to 1000.`, { param: `tools[${i}].max_uses` });
    }
    searches += uses;
  });
  return searches;
}

/** The model's price per web search; a model the catalog prices no search for refuses the tool. */
function webSearchPrice(m: Model): number {
  if (m.web_search_price_minor === undefined || m.web_search_price_minor === null) {
    throw new GatewayError("invalid_request", `Web search is not offered on '${m.id}' (the catalog has no price per search for it).`, { param: "tools" });
  }
  return m.web_search_price_minor;
}

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === "string" && v.trim() ? v.trim() : Array.isArray(v) ? v.join(",") : undefined;
}

/** The Messages request headers a native passthrough forwards. */
export function messagesHeaders(req: Request): MessagesHeaders {
  return { version: header(req, "anthropic-version"), beta: header(req, "anthropic-beta") };
}

/**
 * POST /v1/messages: the Anthropic Messages API, for any chat model. To a deployment whose provider
 * speaks the Messages API the body goes through natively (every field, only the model rewritten)
 * and the answer comes back as the provider sent it; for the others the request is translated to
 * the chat shape and answers (streams event by event) back to the Messages shape, and a field with
 * no equivalent there (thinking, top_k …) is a 400. Fallbacks may cross between the two.
 */
export const messagesRoute: RouteSpec<MessagesRequest, "chat"> = {
  route: "messages",
  capability: "chat",
  parse: (raw) => {
    const body = parseBody(MessagesBody, raw) as Record<string, unknown>;
    const webSearches = billedServerTools(body.tools);
    let untranslatable: GatewayError | undefined;
    try {
      anthropicToOpenAI(body);
    } catch (err) {
      if (!(err instanceof GatewayError)) throw err;
      untranslatable = err;
    }
    return { raw: body, webSearches, untranslatable };
  },
  admission: ({ raw, webSearches }, res) => {
    const bodyBytes = locals(res).bodyBytes ?? Buffer.byteLength(JSON.stringify(raw));
    return {
      modelId: raw.model as string,
      promptTokensBound: (m) => chatPromptBound(m, bodyBytes, mediaParts(raw.messages, raw.system)),
      // The hold covers every search the web search tools allow, at the model's price per search.
      ...(webSearches > 0 ? { perUseCostMinor: (m: Model) => webSearches * webSearchPrice(m) } : {}),
      requestedOutput: raw.max_tokens as number,
      outputParam: "max_tokens",
      promptTexts: () => messagesTexts(raw).segments.map((s) => s.text),
      guard: { stream: raw.stream === true, texts: () => messagesTexts(raw) },
    };
  },
  execute: (ctx, req, res, { body: { raw, untranslatable }, model, planned, reservation }) => {
    const headers = messagesHeaders(req);
    const native = (kind: Parameters<typeof adapterFor>[0]) => adapterFor(kind).messages;
    // Refused before any attempt when no planned deployment could take the body as it is.
    if (untranslatable && !planned.some((p) => native(p.target.provider.kind))) throw untranslatable;
    // Translated when a deployment needs it, after the input guardrails ran (masking rewrote `raw`).
    let chat: ChatRequestBody | undefined;
    const translated = anthropicShape(model.id);
    const via = (p: (typeof planned)[number]): Via => {
      const messages = native(p.target.provider.kind);
      if (messages) return { adapter: messages(headers), body: raw as ChatRequestBody, shape: anthropicNativeShape(), answerTexts: messageTexts };
      if (untranslatable) throw untranslatable;
      chat ??= anthropicToOpenAI(raw);
      return { adapter: p.adapter, body: chat, shape: translated };
    };
    // Every attempt goes through `via`; the body here only says whether the request streams.
    const call = { body: raw as ChatRequestBody, model, planned, reservation, bodyBytes: locals(res).bodyBytes ?? 0, shape: translated, via };
    return runChat(ctx, req, res, call);
  },
};

export const messages = (ctx: DataPlaneContext) => handle(ctx, messagesRoute);
