import { z } from "zod";
import { GatewayError, invalidParam } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { DEFAULT_WEB_SEARCHES, chatPromptBound, mediaParts, searchResultTokens } from "../credits/bounds.js";
import { maxTokenCostMinor } from "@gateway/pricing";
import { modelId, parseBody } from "../http/body.js";
import { messagesHeaders } from "../http/headers.js";
import { serveChat } from "../pipeline/chat.js";
import { messagesSession } from "../routing/session-key.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import type { MessagesRequestBody } from "../providers/index.js";
import { messagesRequestTexts, textsOf } from "../translate/texts.js";

/** The Messages fields the gateway relies on (the reference API requires max_tokens); the rest passes through. */
const MessagesBody = z.looseObject({
  model: modelId,
  max_tokens: z.number({ error: "'max_tokens' is required: a positive integer." }).int("'max_tokens' is required: a positive integer.").min(1, "'max_tokens' is required: a positive integer."),
  messages: z.array(z.unknown(), { error: "'messages' is required: a non-empty array of messages." }).min(1, "'messages' is required: a non-empty array of messages."),
  stream: z.boolean({ error: "'stream' must be a boolean." }).optional(),
  stop_sequences: z.array(z.string(), { error: "'stop_sequences' must be an array of strings." }).optional(),
});

interface MessagesRequest {
  raw: MessagesRequestBody;
  /** The most web searches the request may run (its web search tools' max_uses), each billed per search. */
  webSearches: number;
  /** The most tokens its web fetches may bring into the prompt (max_uses × max_content_tokens), billed as input. */
  fetchedTokens: number;
}

/**
 * Server tools the provider bills beside the tokens the gateway bounds. Web search (per search) is
 * offered on models the catalog prices it for: each web search tool's `max_uses` (set to
 * DEFAULT_WEB_SEARCHES when the request sets none) bounds the searches the hold covers. Web fetch
 * bills what it fetched as input tokens: its `max_uses` (DEFAULT_WEB_FETCHES when absent) times its
 * `max_content_tokens` (DEFAULT_FETCH_TOKENS when absent: both are then sent, so the provider keeps
 * to them) are held at the input price. Code execution (per container-hour) has no price and is
 * refused. Client tools go through.
 */
const WEB_SEARCH = /^web_search_/;
const WEB_FETCH = /^web_fetch_/;
const CODE_EXECUTION = /^code_execution_/;
export const DEFAULT_WEB_FETCHES = 5;
export const DEFAULT_FETCH_TOKENS = 20_000;

/** A positive integer field of a tool, set to `fallback` when absent; a 400 naming it otherwise. */
function bounded(tool: Record<string, unknown>, field: string, fallback: number, max: number, at: string): number {
  if (tool[field] === undefined || tool[field] === null) tool[field] = fallback;
  const v = tool[field];
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1 || v > max) {
    throw new GatewayError("invalid_request", `'${at}.${field}' must be an integer from 1 to ${max}.`, { param: `${at}.${field}` });
  }
  return v;
}

/** The most web searches and fetched tokens the request's tools allow; refuses code execution and bad limits. */
function billedServerTools(tools: unknown): { webSearches: number; fetchedTokens: number } {
  const out = { webSearches: 0, fetchedTokens: 0 };
  if (!Array.isArray(tools)) return out;
  tools.forEach((t: unknown, i) => {
    if (!t || typeof t !== "object") return;
    const tool = t as Record<string, unknown>;
    const type = tool.type;
    if (typeof type !== "string") return;
    if (CODE_EXECUTION.test(type)) {
      throw new GatewayError("invalid_request", `'tools[${i}]': the server tool '${type}' is not supported: the provider bills it per container-hour, which the gateway has no price or hold for.`, {
        param: `tools[${i}]`,
      });
    }
    if (WEB_SEARCH.test(type)) out.webSearches += bounded(tool, "max_uses", DEFAULT_WEB_SEARCHES, 1_000, `tools[${i}]`);
    else if (WEB_FETCH.test(type))
      out.fetchedTokens += bounded(tool, "max_uses", DEFAULT_WEB_FETCHES, 100, `tools[${i}]`) * bounded(tool, "max_content_tokens", DEFAULT_FETCH_TOKENS, 1_000_000, `tools[${i}]`);
  });
  return out;
}

/**
 * Betas go to Anthropic as sent, except those the provider bills above the catalog's prices:
 * `context-1m-…` opens a 1M-token window at premium rates past 200k tokens. It is forwarded only
 * for a model whose catalog prices that premium (long-context threshold and prices: the hold and the
 * bill then take them above the threshold, docs/billing.md); elsewhere it is refused, not forwarded.
 * The other betas change what the model may do, not what a token costs: what they enable that is
 * billed apart (server tools, documents, cache lifetimes) is bounded or refused by field.
 */
const PRICED_BETA = /(^|,)\s*context-1m-/i;

/**
 * The client's betas the catalog allows for the model (`anthropic_betas`: exact names, or prefixes
 * ending in `*`), to forward; the others are dropped and named in `x-gateway-betas-dropped` on the
 * answer. A beta the provider bills above the catalog's prices (the 1M context without long-context
 * prices) is refused instead, since the client asked for it by name.
 */
export function allowedBetas(beta: string | undefined, model: Model, res: { setHeader(name: string, value: string): unknown; headersSent?: boolean } | undefined): string | undefined {
  if (!beta) return undefined;
  refuseUnpricedBetas(beta, model);
  const allow = model.anthropic_betas ?? [];
  const allowed = (b: string) => allow.some((a) => (a.endsWith("*") ? b.startsWith(a.slice(0, -1)) : a === b));
  const asked = beta
    .split(",")
    .map((b) => b.trim())
    .filter(Boolean);
  const kept = asked.filter(allowed);
  const dropped = asked.filter((b) => !allowed(b));
  if (dropped.length > 0 && res && !res.headersSent) res.setHeader("x-gateway-betas-dropped", dropped.join(","));
  return kept.length > 0 ? kept.join(",") : undefined;
}

function refuseUnpricedBetas(beta: string | undefined, model: Model): void {
  const priced = (model.long_context_threshold_tokens ?? 0) > 0 && model.long_context_input_price_minor_per_mtok !== undefined && model.long_context_input_price_minor_per_mtok !== null;
  if (beta && PRICED_BETA.test(beta) && !priced) {
    throw invalidParam("anthropic-beta", `The 'anthropic-beta' value 'context-1m-…' is not offered on '${model.id}': the gateway's catalog has no long-context prices for it.`);
  }
}

/**
 * What a Messages body may not carry through the gateway, the same for /v1/messages and its
 * count_tokens (which the provider answers free: it must not become a way to make the provider fetch
 * documents or call MCP servers unrecorded): unbounded content, `mcp_servers`, unpriced server
 * tools. Returns what the body's server tools may bill.
 */
export function refuseWhatMessagesRefuses(body: MessagesRequestBody): { webSearches: number; fetchedTokens: number } {
  refuseUnboundedContent(body);
  if (body.mcp_servers !== undefined && body.mcp_servers !== null) {
    throw invalidParam(
      "mcp_servers",
      "'mcp_servers' is not supported: the provider would call those servers and bill what they return as input the gateway cannot bound. Call tools through your own client (or the gateway's MCP endpoint when it exists).",
    );
  }
  return billedServerTools(body.tools);
}

/**
 * Content the provider would bill beyond what the hold covers is refused, naming where it is:
 * - a document or image by file id (read from the gateway's own provider account) and a document by
 *   URL (pages the prompt bound never saw); inline base64 and text documents go through, counted by
 *   their bytes;
 * - a one-hour prompt cache (`cache_control.ttl: "1h"`), written at twice the input price, above
 *   the catalog's cache-write price the hold is taken at; the default five-minute cache goes through.
 * One walk over the system prompt, the tools and every message's blocks, tool results included.
 */
function refuseUnboundedContent(body: MessagesRequestBody): void {
  const check = (v: unknown, at: string): void => {
    if (Array.isArray(v)) return v.forEach((x, i) => check(x, `${at}[${i}]`));
    if (!v || typeof v !== "object") return;
    const block = v as { type?: unknown; source?: { type?: unknown }; cache_control?: { ttl?: unknown }; content?: unknown };
    const ttl = block.cache_control?.ttl;
    if (ttl !== undefined && ttl !== null && ttl !== "5m") {
      throw new GatewayError("invalid_request", `'${at}.cache_control.ttl': only the default 5-minute prompt cache is offered (a longer one is priced above the gateway's catalog).`, {
        param: `${at}.cache_control.ttl`,
      });
    }
    const source = block.source?.type;
    if ((block.type === "document" || block.type === "image") && (source === "file" || (block.type === "document" && source === "url"))) {
      throw new GatewayError(
        "invalid_request",
        `'${at}.source': a ${block.type} by ${source === "file" ? "file id" : "URL"} is not supported (the provider would bill content the gateway cannot bound); send it inline (base64 or text).`,
        { param: `${at}.source` },
      );
    }
    if (Array.isArray(block.content)) check(block.content, `${at}.content`);
  };
  check(body.system, "system");
  check(body.tools, "tools");
  check(body.messages, "messages");
}

/** The model's price per web search; a model the catalog prices no search for refuses the tool. */
function webSearchPrice(m: Model): number {
  if (m.web_search_price_minor === undefined || m.web_search_price_minor === null) {
    throw invalidParam("tools", `Web search is not offered on '${m.id}' (the catalog has no price per search for it).`);
  }
  return m.web_search_price_minor;
}

/**
 * POST /v1/messages: the Anthropic Messages API, for any chat model. To a deployment whose provider
 * speaks the Messages API the body goes through natively (every field, only the model rewritten)
 * and the answer comes back as the provider sent it; for the others the request is translated
 * (translate/pairs/) and answers (streams event by event) come back in the Messages shape; a field
 * with no equivalent there (thinking, top_k …) leaves those deployments out, and is a 400 when none
 * is left. Fallbacks may cross between the two.
 */
export const messagesRoute: RouteSpec<MessagesRequest, "chat"> = {
  route: "messages",
  capability: "chat",
  parse: (raw) => {
    const body = parseBody(MessagesBody, raw) as MessagesRequestBody;
    return { raw: body, ...refuseWhatMessagesRefuses(body) };
  },
  admission: ({ raw, webSearches, fetchedTokens }, state, _ctx, req) => {
    const media = mediaParts(raw.messages, raw.system);
    const bodyBytes = state.bodyBytes ?? Buffer.byteLength(JSON.stringify(raw));
    return {
      modelId: raw.model,
      promptTokensBound: (m, _r, sentBytes) => chatPromptBound(m, sentBytes ?? bodyBytes, media),
      imageTokens: (m) => media.images * m.max_input_tokens_per_image,
      audio: () => ({ input: media.audio > 0, output: false }),
      // The hold covers every search the web search tools allow, at the model's price per search.
      // Fetched content is prompt: held at the dearest price a prompt token has.
      // Search results enter the prompt too: the model's tokens per search, at the same price.
      ...(webSearches > 0 || fetchedTokens > 0
        ? { perUseCostMinor: (m: Model) => (webSearches > 0 ? webSearches * webSearchPrice(m) : 0) + maxTokenCostMinor(fetchedTokens + webSearches * searchResultTokens(m), 0, m) }
        : {}),
      offersTools: Array.isArray(raw.tools) && raw.tools.length > 0,
      requestedOutput: raw.max_tokens,
      outputParam: "max_tokens",
      clampOutput: (r, limit) => ({ ...r, raw: { ...r.raw, max_tokens: limit } }),
      promptTexts: (r) => textsOf(messagesRequestTexts(r.raw)),
      guard: { stream: raw.stream === true, texts: (r) => messagesRequestTexts(r.raw).map((masked) => ({ ...r, raw: masked })) },
      // Streamed: held in tranches when its output bound exceeds one (pipeline/tranches.ts).
      tranches: raw.stream === true,
      // Not streamed but held in tranches: asked of the provider as a stream, the answer read whole.
      streamed: (r) => ({ ...r, raw: { ...r.raw, stream: true } }),
      session: (r) => messagesSession(r.raw, req),
      // As the input guardrails left it (a masked copy when a mask applied).
      client: {
        api: "messages",
        request: (r, model) => {
          const headers = messagesHeaders(req);
          return { body: r.raw, headers: { ...headers, beta: allowedBetas(headers.beta, model, req.res) }, model };
        },
      },
    };
  },
  serve: (ctx, call) => serveChat(ctx, call, { routes: call.routed, stream: call.body.raw.stream === true }),
};

export const messages = (ctx: DataPlaneContext) => handle(ctx, messagesRoute);
