import { GatewayError } from "@gateway/errors";
import { parseStreamEvent, PlainText } from "../sse.js";
import {
  choicesOf,
  serviceTier,
  type ChatAdapter,
  type ChatRequestBody,
  type NormalizedUsage,
  type ParsedChatResponse,
  type ParsedStreamEvent,
  type StreamCollector,
  type StreamParser,
  type UpstreamTarget,
} from "../types.js";
import { ChatCompletionCollector } from "./collect.js";

interface OpenAIUsage {
  prompt_tokens?: number;
  completion_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number; audio_tokens?: number } | null;
  completion_tokens_details?: { reasoning_tokens?: number; audio_tokens?: number } | null;
}

const count = (n: unknown): number => Math.max(0, Math.trunc(Number(n ?? 0)) || 0);

/**
 * The provider's counts, or undefined when it gave none (`usage: {}`, all zero): then the gateway
 * estimates, never bills 0. OpenAI's totals include their parts: `prompt_tokens` counts the cached
 * ones (`prompt_tokens_details.cached_tokens`), `completion_tokens` the reasoning ones
 * (`completion_tokens_details.reasoning_tokens`), as the normalized usage does. OpenAI has no
 * cache-write count (writing its cache costs nothing extra).
 */
export function normalizeOpenAIUsage(u: OpenAIUsage | null | undefined, tier?: unknown): NormalizedUsage | undefined {
  if (!u || typeof u !== "object") return undefined;
  const input = Number(u.prompt_tokens ?? 0);
  const output = Number(u.completion_tokens ?? 0);
  if (!Number.isFinite(input) || !Number.isFinite(output)) return undefined;
  if (input <= 0 && output <= 0) return undefined;
  return {
    input_tokens: Math.max(0, Math.trunc(input)),
    output_tokens: Math.max(0, Math.trunc(output)),
    cached_input_tokens: count(u.prompt_tokens_details?.cached_tokens),
    reasoning_tokens: count(u.completion_tokens_details?.reasoning_tokens),
    // Audio tokens are priced apart (the catalog's audio prices); only present when non-zero.
    ...(count(u.prompt_tokens_details?.audio_tokens) > 0 ? { audio_input_tokens: count(u.prompt_tokens_details?.audio_tokens) } : {}),
    ...(count(u.completion_tokens_details?.audio_tokens) > 0 ? { audio_output_tokens: count(u.completion_tokens_details?.audio_tokens) } : {}),
    estimated: false,
    // OpenAI states it beside the usage (the answer's, or the stream's chunk's `service_tier`).
    ...serviceTier(tier),
  };
}

/**
 * Normalized usage in the chat-completions shape, for adapters that translate answers into it (the
 * inverse of normalizeOpenAIUsage): totals with their parts; reasoning only where the provider counts it.
 */
export function chatCompletionUsage(u: NormalizedUsage | undefined): Record<string, unknown> | undefined {
  if (!u) return undefined;
  return {
    prompt_tokens: u.input_tokens,
    completion_tokens: u.output_tokens,
    total_tokens: u.input_tokens + u.output_tokens,
    prompt_tokens_details: { cached_tokens: u.cached_input_tokens },
    ...(u.reasoning_tokens !== undefined ? { completion_tokens_details: { reasoning_tokens: u.reasoning_tokens } } : {}),
  };
}

function upstreamMessage(bodyText: string): string {
  try {
    const j = JSON.parse(bodyText) as { error?: { message?: unknown } | string };
    if (typeof j.error === "string") return j.error;
    if (j.error && typeof j.error.message === "string") return j.error.message;
  } catch {
    // not JSON: fall through
  }
  return bodyText.slice(0, 200);
}

/** Maps an upstream HTTP failure to the gateway's error; retryable ones are 429 and 5xx. */
export function mapOpenAIError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError {
  const msg = upstreamMessage(bodyText);
  const retry = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? { retry_after_s: Number(retryAfter) } : {};
  if (status === 429) return new GatewayError("model_unavailable", `The provider is rate limiting requests: ${msg}`, retry);
  if (status === 401 || status === 403) return new GatewayError("upstream_error", "The provider rejected the gateway's credentials for this model.");
  if (status >= 500) return new GatewayError("upstream_error", `The provider failed with status ${status}: ${msg}`, retry);
  if (status === 404) return new GatewayError("upstream_error", `The provider does not know the configured upstream model: ${msg}`);
  return new GatewayError("invalid_request", `The provider rejected the request: ${msg}`);
}

/** The credential header: `Authorization: Bearer …`, or the provider's own header carrying it as is. */
export function openAIAuthHeaders(target: UpstreamTarget): Record<string, string> {
  if (!target.apiKey) return {};
  return target.provider.auth_header ? { [target.provider.auth_header.toLowerCase()]: target.apiKey } : { authorization: `Bearer ${target.apiKey}` };
}

/** A chat completion answered by the provider, with the public model id. */
function parseChatCompletion(json: unknown, publicModel: string): ParsedChatResponse {
  if (!json || typeof json !== "object" || !Array.isArray((json as { choices?: unknown }).choices)) {
    throw new GatewayError("upstream_error", "The provider returned an invalid chat completion.");
  }
  const body = json as Record<string, unknown>;
  const usage = normalizeOpenAIUsage(body.usage as OpenAIUsage | undefined, body.service_tier);
  return { body: { ...body, model: publicModel }, usage };
}

/** Chat completions for any server speaking the OpenAI shape (OpenAI itself, vLLM, Groq …). */
export function openAICompatibleChat(): ChatAdapter {
  return {
    buildChatRequest(body: ChatRequestBody, target: UpstreamTarget) {
      const upstreamBody: Record<string, unknown> = { ...body, model: target.deployment.upstream_model };
      if (body.stream) {
        // Always ask for usage so streams are billed from the provider's own count.
        upstreamBody.stream_options = { ...(body.stream_options ?? {}), include_usage: true };
      }
      const headers: Record<string, string> = { "content-type": "application/json", accept: body.stream ? "text/event-stream" : "application/json" };
      Object.assign(headers, openAIAuthHeaders(target));
      return { url: `${target.provider.base_url.replace(/\/+$/, "")}/chat/completions`, headers, body: JSON.stringify(upstreamBody) };
    },

    parseChatResponse: parseChatCompletion,

    streamParser: (publicModel: string, _upstreamModel: string, request?: ChatRequestBody, frames = true) => chatStreamParser(publicModel, frames, choicesOf(request)),

    // Chat completions to a chat-completions server: chunks go out as they came, only the model id
    // replaced; the usage chunk, [DONE] and error chunks are parsed.
    passthrough: (publicModel: string, _upstreamModel: string, request?: ChatRequestBody) => ({
      plain: chatPlainChunks,
      parser: chatStreamParser(publicModel, true, choicesOf(request)),
      rewrite: publicModelIn(publicModel, true),
    }),

    // A non-streamed request held in tranches: its chunks make the chat.completion the JSON would have been.
    collect(publicModel: string, _upstreamModel: string, request?: ChatRequestBody): StreamCollector {
      const collector = new ChatCompletionCollector(chatCompletionUsage);
      return { parser: chatStreamParser(publicModel, false, choicesOf(request)), take: (ev) => collector.take(ev), answer: () => parseChatCompletion(collector.completion(), publicModel) };
    },

    mapError: mapOpenAIError,
  };
}

/**
 * Puts the public model id in place of whatever model a provider names (`"model":"…"` is only ever a
 * key in JSON text: quotes inside strings are escaped), a dated snapshot id included.
 */
export function publicModelIn(publicModel: string, latin1 = false): (json: string) => string {
  const json = `"model":${JSON.stringify(publicModel)}`;
  // `latin1`: the text is UTF-8 bytes one per character (a passthrough's), and so is the id put in.
  // A replacement string, not a function (one call per match): its `$` written as `$$`.
  const to = (latin1 ? Buffer.from(json).toString("latin1") : json).replaceAll("$", "$$$$");
  return (text) => text.replace(/"model":"[^"\\]*(?:\\.[^"\\]*)*"/g, to);
}

/**
 * A chunk that carries nothing but text (OpenAI's usual chunk: scalar fields around one choice whose
 * delta is only `content`, not finished, usage null or absent), with that text's JSON string body:
 * read without parsing the chunk (a tenth of JSON.parse's time). Any other chunk — a role, tool
 * calls, reasoning, a finish, usage, an error, several choices, another key order — is parsed.
 */
const TEXT_ONLY =
  /^\{(?:"[a-z_]+":(?:"[^"\\]*"|-?\d+|null),)*"choices":\[\{"index":0,"delta":\{"content":"([^"\\]*(?:\\.[^"\\]*)*)"\}(?:,"logprobs":null)?,"finish_reason":null(?:,"logprobs":null)?\}\](?:,"[a-z_]+":(?:"[^"\\]*"|-?\d+|null))*\}$/;

/** A JSON string body (between its quotes) as the string it stands for. */
export const jsonStringBody = (body: string): string => (body.includes("\\") ? (JSON.parse(`"${body}"`) as string) : body);

/**
 * One chat-completions stream's chunks, parsed: usage, counted text, the end, errors; with `frames`,
 * each chunk's text for a chat client too (`forward`, the model id public), which a translating
 * client shape does not read.
 */
function chatStreamParser(publicModel: string, frames = true, choices = 1): StreamParser {
  // Only a client that reads the frames gets the public model id written into them.
  const rewrite = frames ? publicModelIn(publicModel) : undefined;
  /** Choices the provider finished (a finish_reason), by index. */
  const finished = new Set<number>();
  const parse = (data: string): ParsedStreamEvent => {
    if (data === "[DONE]") return { forward: undefined, text: "", done: true };
    const textOnly = TEXT_ONLY.exec(data);
    if (textOnly) {
      const content = jsonStringBody(textOnly[1]!);
      return { forward: rewrite?.(data), chunk: { choices: [{ index: 0, delta: { content }, finish_reason: null }] }, usageOnly: false, text: content, done: false };
    }
    const event = parseStreamEvent<{
      choices?: Array<{
        index?: unknown;
        finish_reason?: unknown;
        delta?: { content?: unknown; reasoning_content?: unknown; reasoning?: unknown; tool_calls?: Array<{ function?: { arguments?: unknown } }> };
      }>;
      usage?: OpenAIUsage | null;
      service_tier?: unknown;
      error?: unknown;
    }>(data);
    if (event.error) throw new GatewayError("upstream_error", `The provider reported an error mid-stream: ${upstreamMessage(data)}`);
    const usage = normalizeOpenAIUsage(event.usage, event.service_tier);
    let text = "";
    // Everything the model generated counts when the provider reports no usage: content,
    // reasoning (OpenAI-compatible servers stream it as reasoning_content or reasoning) and tool arguments.
    for (const c of event.choices ?? []) {
      // Some servers send "finish_reason": "" on every chunk: only a reason says the choice ended.
      if (typeof c.finish_reason === "string" && c.finish_reason !== "") finished.add(typeof c.index === "number" ? c.index : 0);
      const d = c.delta;
      if (!d) continue;
      if (typeof d.content === "string") text += d.content;
      if (typeof d.reasoning_content === "string") text += d.reasoning_content;
      if (typeof d.reasoning === "string") text += d.reasoning;
      for (const t of d.tool_calls ?? []) if (typeof t.function?.arguments === "string") text += t.function.arguments;
    }
    const usageOnly = usage !== undefined && (event.choices?.length ?? 0) === 0;
    return { forward: rewrite?.(data), chunk: event as Record<string, unknown>, usageOnly, ...(usage ? { usage } : {}), text, done: false };
  };
  // Some OpenAI-compatible servers close the stream without `data: [DONE]`: once every choice asked
  // for has finished, the answer is whole (the client gets its [DONE]); before that it broke off.
  return Object.assign(parse, { end: (): ParsedStreamEvent | undefined => (finished.size >= choices ? { forward: undefined, text: "", done: true } : undefined) });
}

/**
 * Chunks the chat passthrough sends as they came, with the characters chatStreamParser would count
 * in them; the parser reads [DONE] and chunks with usage, an error or a finish (it tells the end of
 * a stream the provider closes without [DONE]). OpenAI sends `"usage":null` on every chunk of a
 * stream that asked for usage: those are plain.
 */
export const chatPlainChunks = new PlainText(["content", "reasoning_content", "reasoning", "arguments"], String.raw`"usage":\s*[^n\s]|"error"|"finish_reason":\s*"[^"]|\[DONE\]`);
