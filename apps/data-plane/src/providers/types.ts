import type { PlainReading } from "./sse.js";
import type { GatewayError } from "@gateway/errors";
import type { Deployment, Provider, ProviderKind } from "@gateway/proto";
import type { VideoAdapter } from "./video/types.js";
import type { BillableTokens } from "@gateway/pricing";
import type { UsageBasis } from "@gateway/events";

/** Every provider kind the catalog may name (one list, in @gateway/proto); the adapter switch over it is exhaustive. */
export { type ProviderKind, isProviderKind } from "@gateway/proto";

/** A JSON object of a wire format: not null, not an array. */
export type Json = Record<string, unknown>;
export const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

/** A catalog provider whose kind was narrowed once, when the catalog loaded. */
export type CatalogProvider = Omit<Provider, "kind"> & { kind: ProviderKind };

/** Token usage normalized across providers (absent counts: 0). */
export interface NormalizedUsage extends BillableTokens {
  /** Of input_tokens: read from the prompt cache. input_tokens counts every prompt token. */
  cached_input_tokens: number;
  /** True when counted by the gateway because the provider reported none. */
  estimated: boolean;
  /**
   * How the figures were obtained (docs/billing.md): the provider's report (`reported`; `drained`
   * when it was read after the client left), counted from what was generated (`estimated`), or
   * counted plus hidden reasoning bounded by the model's output rate × the time it had (`bounded`).
   * Absent: `reported`, or `estimated` when `estimated` is true.
   */
  basis?: UsageBasis;
  /**
   * The provider's service tier for the answer (OpenAI's top-level `service_tier`: default, flex,
   * priority, scale; Anthropic's `usage.service_tier`: standard, priority, batch), recorded for
   * reconciliation (docs/billing.md, "Reconciliation"); absent when it said none.
   */
  service_tier?: string;
}

/** A provider's service tier as recorded: a short string, or nothing. */
export function serviceTier(v: unknown): { service_tier?: string } {
  return typeof v === "string" && v !== "" ? { service_tier: v.slice(0, 32) } : {};
}

/** How a usage record's figures were obtained (the usage event's own values). */
export type { UsageBasis };

/** Where one attempt goes. */
export interface UpstreamTarget {
  provider: CatalogProvider;
  deployment: Deployment;
  /** The resolved credential; never logged. */
  apiKey: string | undefined;
}

export interface UpstreamHttpRequest {
  /** POST when absent. */
  method?: "GET" | "POST" | "PUT" | "DELETE";
  url: string;
  headers: Record<string, string>;
  body?: string;
}

/** OpenAI chat-completions request body as the client sent it (validated loosely). */
export interface ChatRequestBody {
  model: string;
  messages: unknown[];
  stream?: boolean;
  stream_options?: { include_usage?: boolean } | null;
  max_tokens?: number | null;
  max_completion_tokens?: number | null;
  [k: string]: unknown;
}

/** How many choices (candidates) a chat request asks for: `n`, 1 when absent. */
export const choicesOf = (body: ChatRequestBody | undefined): number => (typeof body?.n === "number" && body.n > 1 ? body.n : 1);

export interface ParsedChatResponse {
  /** The response body to return to the client (OpenAI chat.completion shape). */
  body: Record<string, unknown>;
  usage: NormalizedUsage | undefined;
}

/** What one SSE data payload of an upstream chat stream means. */
export interface ParsedStreamEvent {
  /** The event as OpenAI chunk JSON text, model rewritten to the public id. */
  forward: string | undefined;
  /** The parsed chunk, for translation to other client shapes. */
  chunk?: Record<string, unknown>;
  /** True for the usage-only chunk the gateway asked for (no choices). */
  usageOnly?: boolean;
  /** A usage-only chunk that follows `forward`, for clients that asked for usage. */
  usageForward?: string;
  usage?: NormalizedUsage;
  /**
   * What the provider has reported so far when its final usage is still to come (Anthropic's
   * message_start input and cache counts, Gemini's running usageMetadata): the floor of the bill
   * of a stream that ends before its usage (the client left, the provider broke off).
   */
  reported?: NormalizedUsage;
  /** Text content carried by this event (for counting tokens when usage is missing). */
  text: string;
  /**
   * The provider announced that a reasoning phase began (true: a Responses `reasoning` item, an
   * Anthropic `thinking` block) or ended (false: the phase's item is done, an answer block began).
   * Its time bounds the reasoning billed for a stream cut short (pipeline/hidden-time.ts).
   */
  thinking?: boolean;
  /** Server-side searches the provider reported as run in this event (billed per search): counted for a stream cut short. */
  searches?: number;
  /** True on the terminal `[DONE]`. */
  done: boolean;
}

/** Reads one upstream stream's SSE data payloads, in order (stateful: some providers spread usage over events). */
export interface StreamParser {
  (data: string): ParsedStreamEvent;
  /**
   * For providers whose complete stream ends when the connection closes, with no terminal event
   * (Gemini): called when the upstream body ends; the `done` event when the stream was complete,
   * undefined when it broke off. Absent: a stream without its terminal event broke off.
   */
  end?: () => ParsedStreamEvent | undefined;
  /**
   * The wire format announces its reasoning phases (`thinking` events: Anthropic's thinking blocks,
   * Responses' reasoning items), so the quiet before its first visible output is not taken for
   * hidden reasoning (pipeline/hidden-time.ts). Absent: it may reason unannounced before answering.
   */
  announcesReasoning?: boolean;
}

/**
 * One upstream stream read whole, for a client that asked for a whole answer (a non-streamed request
 * held in tranches is streamed from the provider: pipeline/chat.ts): `parser` reads the stream as a
 * relayed one's parser does (usage, counted text, reasoning phases, searches, the end), `take` keeps
 * each parsed event it is handed, and `answer` is what `parseChatResponse` gives for the provider's
 * JSON answer to the same request.
 */
export interface StreamCollector {
  parser: StreamParser;
  /** One parsed event (the terminal one included), kept for the answer. */
  take(ev: ParsedStreamEvent): void;
  /** The whole answer, once the stream ended complete; throws upstream_error when its events do not make one. */
  answer(): ParsedChatResponse;
}

/** Marks a parser whose wire format announces its reasoning phases (StreamParser.announcesReasoning). */
export function announcing<P extends StreamParser>(parser: P): P {
  parser.announcesReasoning = true;
  return parser;
}

/**
 * A stream relayed as the provider framed it (the client's wire format is the provider's, and no
 * output guardrail reads it): blocks that only carry generated text go out as they came, in runs
 * (providers/sse.ts PassthroughScanner); the rest are read by `parser`.
 */
export interface StreamPassthrough extends PlainReading {
  parser: StreamParser;
}

/**
 * One provider wire format for bodies of type B: build the request, parse answers and streams, map
 * errors. `ChatAdapter` takes chat-completions bodies (every chat provider has one: it translates
 * them to its own format); the native passthroughs take the client's Messages or Responses bodies.
 */
export interface WireAdapter<B> {
  buildChatRequest(body: B, target: UpstreamTarget): UpstreamHttpRequest;
  /** `request`: the body sent (buildChatRequest's), for answers whose reading depends on it. */
  parseChatResponse(json: unknown, publicModel: string, request?: B): ParsedChatResponse;
  /**
   * A parser for one upstream stream. `frames` false: the client shape translates the parsed
   * events (`chunk`) and never sends `forward`, which the parser may then leave out.
   */
  streamParser(publicModel: string, upstreamModel: string, request?: B, frames?: boolean): StreamParser;
  /**
   * The passthrough reading of one upstream stream, for pairs whose client shape is this wire
   * format (absent: every event is parsed and written again).
   */
  passthrough?(publicModel: string, upstreamModel: string, request?: B): StreamPassthrough;
  /**
   * The answer read from one upstream stream (the request sent streamed): the same answer
   * parseChatResponse gives for the provider's JSON. Absent: the wire format's answers cannot be
   * read from its streams faithfully, and its non-streamed requests are sent as such and held whole.
   */
  collect?(publicModel: string, upstreamModel: string, request?: B): StreamCollector;
  mapError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError;
}

/** One provider's chat translation: chat-completions bodies to its wire format and back. */
export type ChatAdapter = WireAdapter<ChatRequestBody>;

/** An Anthropic Messages request body: the fields the gateway reads; every other field passes through. */
export interface MessagesRequestBody {
  model: string;
  messages: unknown[];
  max_tokens: number;
  system?: unknown;
  stream?: boolean;
  tools?: unknown;
  [k: string]: unknown;
}

/** An OpenAI Responses request body: the fields the gateway reads; every other field passes through. */
export interface ResponsesRequestBody {
  model: string;
  input: string | unknown[];
  instructions?: string | null;
  stream?: boolean | null;
  store?: boolean | null;
  previous_response_id?: string | null;
  max_output_tokens?: number | null;
  [k: string]: unknown;
}

/** Request headers of the Messages API a native passthrough forwards (absent: the adapter's defaults). */
export interface MessagesHeaders {
  version: string | undefined;
  beta: string | undefined;
}

/**
 * The Messages API in the provider's own shape (a passthrough): the client's Messages body goes
 * through with only `model` rewritten, answers and stream events come back in the Messages shape.
 */
export interface MessagesAdapter extends WireAdapter<MessagesRequestBody> {
  /** POST /v1/messages/count_tokens at the provider. */
  buildCountTokensRequest(body: Record<string, unknown>, target: UpstreamTarget): UpstreamHttpRequest;
}

/** Embeddings in a provider's shape. */
export interface EmbeddingsAdapter {
  build(body: Record<string, unknown>, target: UpstreamTarget): UpstreamHttpRequest;
  /** The client's answer (model rewritten by the caller) and the input tokens billed; throws upstream_error. */
  parse(json: unknown): { body: Record<string, unknown>; inputTokens: number };
  mapError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError;
}

/** Image generation in a provider's shape. */
export interface ImagesAdapter {
  build(body: Record<string, unknown>, target: UpstreamTarget): UpstreamHttpRequest;
  /** The client's answer and how many images were delivered; throws upstream_error. */
  parse(json: unknown): { body: Record<string, unknown>; images: number };
  mapError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError;
}

/**
 * What a provider kind can do. A kind without a capability is skipped when deployments are planned
 * for a route that needs it: no cast, no try/catch, no kind checks in routes.
 */
export interface ProviderAdapter {
  chat?: ChatAdapter;
  /** /v1/messages without translation, for providers that speak the Messages API. */
  messages?: (headers: MessagesHeaders) => MessagesAdapter;
  /** /v1/responses without translation, for providers that speak the Responses API (bodies in its shape). */
  responses?: WireAdapter<ResponsesRequestBody>;
  embeddings?: EmbeddingsAdapter;
  images?: ImagesAdapter;
  video?: VideoAdapter;
}

export type Capability = keyof ProviderAdapter;
