import { randomBytes } from "node:crypto";
import { GatewayError, invalidParam } from "@gateway/errors";
import {
  choicesOf,
  type ChatAdapter,
  type ChatRequestBody,
  type NormalizedUsage,
  type ParsedChatResponse,
  type ParsedStreamEvent,
  type StreamCollector,
  type StreamParser,
  type UpstreamTarget,
} from "../types.js";
import { chatCompletionUsage } from "../openai-compatible/chat.js";
import { ChatCompletionCollector } from "../openai-compatible/collect.js";
import { newCallId } from "./call-id.js";
import { openAIToGemini } from "./request.js";
import type { GeminiCandidate, GeminiErrorBody, GeminiPart, GeminiUsageMetadata, GenerateContentResponse } from "./wire.js";

/**
 * Google's Gemini API (`generateContent`, `streamGenerateContent?alt=sse`) as a chat provider:
 * OpenAI-shaped requests are translated to Gemini's contents, parts and generationConfig
 * (`request.ts`), answers and stream events back to chat completions. Thought summaries
 * (`thought: true` parts) are reasoning: counted and billed, never shown as content.
 */

const count = (n: unknown): number => Math.max(0, Math.trunc(Number(n ?? 0)) || 0);

/**
 * Gemini's counts, or undefined when it gave none. `promptTokenCount` already includes the cached
 * tokens; built-in tools' prompts (`toolUsePromptTokenCount`) are prompt too. Thinking
 * (`thoughtsTokenCount`) is not in `candidatesTokenCount` and is billed as output, so the output
 * is their sum and the thinking its reasoning part.
 */
export function normalizeGeminiUsage(u: GeminiUsageMetadata | undefined): NormalizedUsage | undefined {
  if (!u || typeof u !== "object") return undefined;
  const input = count(u.promptTokenCount) + count(u.toolUsePromptTokenCount);
  const reasoning = count(u.thoughtsTokenCount);
  const output = count(u.candidatesTokenCount) + reasoning;
  if (input <= 0 && output <= 0) return undefined;
  return { input_tokens: input, output_tokens: output, cached_input_tokens: count(u.cachedContentTokenCount), reasoning_tokens: reasoning, estimated: false };
}

/** Gemini's finish reasons; what is not a stop, a length or a call ended on a safety or policy filter. */
function finishReason(reason: string, called: boolean): string {
  switch (reason) {
    case "STOP":
      return called ? "tool_calls" : "stop";
    case "MAX_TOKENS":
      return "length";
    case "SAFETY":
    case "RECITATION":
    case "BLOCKLIST":
    case "PROHIBITED_CONTENT":
    case "SPII":
    case "IMAGE_SAFETY":
    case "IMAGE_PROHIBITED_CONTENT":
    case "IMAGE_RECITATION":
      return "content_filter";
    default:
      // LANGUAGE, OTHER, MALFORMED_FUNCTION_CALL …: the model stopped; the chat shape has no closer reason.
      return called ? "tool_calls" : "stop";
  }
}

/** A prompt Gemini refused to answer: the client's request, not a provider failure (not retried, nothing billed). */
function blocked(r: GenerateContentResponse): GatewayError | undefined {
  const reason = r.promptFeedback?.blockReason;
  if (!reason || r.candidates?.length) return undefined;
  const why = r.promptFeedback?.blockReasonMessage ? `: ${r.promptFeedback.blockReasonMessage}` : "";
  return invalidParam("messages", `The provider blocked the prompt (blockReason ${reason})${why}.`);
}

interface Translated {
  content: string;
  /** Thought summaries and tool arguments too: everything generated, for counting. */
  generated: string;
  toolCalls: Array<{ id: string; type: "function"; function: { name: string; arguments: string } }>;
}

function translateParts(parts: GeminiPart[] | undefined): Translated {
  const t: Translated = { content: "", generated: "", toolCalls: [] };
  for (const p of parts ?? []) {
    if (typeof p.text === "string") {
      t.generated += p.text;
      if (!p.thought) t.content += p.text;
    }
    if (p.functionCall) {
      const args = JSON.stringify(p.functionCall.args ?? {});
      t.generated += args;
      t.toolCalls.push({ id: newCallId(p.thoughtSignature), type: "function", function: { name: p.functionCall.name, arguments: args } });
    }
  }
  return t;
}

function parseJson(data: string, what: string): GenerateContentResponse & GeminiErrorBody {
  try {
    const v = JSON.parse(data) as unknown;
    if (v && typeof v === "object" && !Array.isArray(v)) return v as GenerateContentResponse & GeminiErrorBody;
  } catch {
    // invalid JSON: below
  }
  throw new GatewayError("upstream_error", `The provider returned an invalid ${what}.`);
}

const completionId = (r: GenerateContentResponse) => `chatcmpl-${r.responseId ?? randomBytes(12).toString("hex")}`;

/** Seconds from Google's RetryInfo (`"retryDelay": "37s"`), used when no Retry-After header came. */
function retryDelay(e: GeminiErrorBody["error"]): number | undefined {
  const d = e?.details?.find((x) => typeof x.retryDelay === "string")?.retryDelay;
  const m = d ? /^(\d+(?:\.\d+)?)s$/.exec(d) : null;
  return m ? Math.ceil(Number(m[1])) : undefined;
}

/**
 * Gemini's errors (a google.rpc.Status): 429 / RESOURCE_EXHAUSTED and 5xx retryable, credential
 * problems (401, 403, and the 400 Gemini answers for an invalid key) and a refused location
 * (FAILED_PRECONDITION) the operator's, not the client's, so retried elsewhere; 404 an unknown
 * upstream model; other 4xx the client's request, with the provider's message.
 */
export function mapGeminiError(status: number, bodyText: string, retryAfter: string | undefined): GatewayError {
  let e: GeminiErrorBody["error"];
  try {
    e = (JSON.parse(bodyText) as GeminiErrorBody).error;
  } catch {
    e = undefined;
  }
  const msg = typeof e?.message === "string" ? e.message : bodyText.slice(0, 200);
  const seconds = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? Number(retryAfter) : retryDelay(e);
  const retry = seconds !== undefined ? { retry_after_s: seconds } : {};
  const keyRefused = e?.details?.some((d) => d.reason === "API_KEY_INVALID") === true || e?.status === "UNAUTHENTICATED" || e?.status === "PERMISSION_DENIED";
  if (status === 429 || e?.status === "RESOURCE_EXHAUSTED") return new GatewayError("model_unavailable", `The provider is rate limiting requests: ${msg}`, retry);
  if (status === 401 || status === 403 || keyRefused) return new GatewayError("upstream_error", "The provider rejected the gateway's credentials for this model.");
  if (status >= 500) return new GatewayError("upstream_error", `The provider failed with status ${status}: ${msg}`, retry);
  if (status === 404) return new GatewayError("upstream_error", `The provider does not know the configured upstream model: ${msg}`);
  if (e?.status === "FAILED_PRECONDITION") return new GatewayError("upstream_error", `The provider cannot serve this deployment: ${msg}`);
  return new GatewayError("invalid_request", `The provider rejected the request: ${msg}`);
}

/** `base_url` + `/models/{model}:method`; an upstream model may be written with its `models/` prefix. */
function url(target: UpstreamTarget, stream: boolean): string {
  const model = target.deployment.upstream_model.replace(/^models\//, "");
  return `${target.provider.base_url.replace(/\/+$/, "")}/models/${model}:${stream ? "streamGenerateContent?alt=sse" : "generateContent"}`;
}

export const geminiChat: ChatAdapter = {
  buildChatRequest(body: ChatRequestBody, target: UpstreamTarget) {
    const headers: Record<string, string> = { "content-type": "application/json", accept: body.stream ? "text/event-stream" : "application/json" };
    if (target.apiKey) headers["x-goog-api-key"] = target.apiKey;
    return { url: url(target, body.stream === true), headers, body: JSON.stringify(openAIToGemini(body, target.deployment.upstream_model)) };
  },

  parseChatResponse(json: unknown, publicModel: string): ParsedChatResponse {
    if (!json || typeof json !== "object" || Array.isArray(json)) throw new GatewayError("upstream_error", "The provider returned an invalid answer.");
    const r = json as GenerateContentResponse;
    const refused = blocked(r);
    if (refused) throw refused;
    if (!Array.isArray(r.candidates) || r.candidates.length === 0) throw new GatewayError("upstream_error", "The provider returned an answer without candidates.");
    const usage = normalizeGeminiUsage(r.usageMetadata);
    const choices = r.candidates.map((c: GeminiCandidate, i) => {
      const t = translateParts(c.content?.parts);
      const calls = t.toolCalls.length > 0;
      return {
        index: c.index ?? i,
        message: { role: "assistant", content: t.content || (calls ? null : ""), ...(calls ? { tool_calls: t.toolCalls } : {}) },
        finish_reason: finishReason(c.finishReason ?? "STOP", calls),
        logprobs: null,
      };
    });
    return {
      body: { id: completionId(r), object: "chat.completion", created: Math.floor(Date.now() / 1000), model: publicModel, choices, ...(usage ? { usage: chatCompletionUsage(usage) } : {}) },
      usage,
    };
  },

  streamParser(publicModel: string, _upstreamModel: string, request?: ChatRequestBody): StreamParser {
    const created = Math.floor(Date.now() / 1000);
    /** Candidates asked for: the usage chunk follows the last one's finish. */
    const candidates = choicesOf(request);
    let id: string | undefined;
    /** Per candidate: whether a delta (with the role) went out, tool calls so far (their delta index), finished. */
    const seen = new Map<number, { started: boolean; calls: number; finished: boolean }>();
    let finished = 0;
    let usage: NormalizedUsage | undefined;
    let usageSent = false;
    // Gemini sends no terminal event: each chunk is one GenerateContentResponse, the last one
    // carries the finish reason (and the final usage), then the connection closes.
    const parse = (data: string): ParsedStreamEvent => {
      const r = parseJson(data, "stream event");
      if (r.error) throw new GatewayError("upstream_error", `The provider reported an error mid-stream: ${r.error.message ?? r.error.status ?? "unknown"}`);
      const refused = blocked(r);
      if (refused) throw refused;
      id ??= completionId(r);
      // Usage is on every chunk, growing; the finished answer's is the one billed (a stream cut
      // before the finish is billed from what was delivered, like every provider's).
      usage = normalizeGeminiUsage(r.usageMetadata) ?? usage;
      let text = "";
      const choices: Array<Record<string, unknown>> = [];
      (r.candidates ?? []).forEach((c, i) => {
        const index = c.index ?? i;
        let s = seen.get(index);
        if (!s) seen.set(index, (s = { started: false, calls: 0, finished: false }));
        const t = translateParts(c.content?.parts);
        text += t.generated;
        const delta: Record<string, unknown> = {};
        if (t.content) delta.content = t.content;
        if (t.toolCalls.length) delta.tool_calls = t.toolCalls.map((tc) => ({ index: s.calls++, ...tc }));
        let finish: string | null = null;
        if (c.finishReason && !s.finished) {
          s.finished = true;
          finished++;
          finish = finishReason(c.finishReason, s.calls > 0);
        }
        // A chunk of thoughts alone has nothing to show.
        if (!Object.keys(delta).length && !finish) return;
        choices.push({ index, delta: s.started ? delta : { role: "assistant", ...delta }, finish_reason: finish, logprobs: null });
        s.started = true;
      });
      const done = finished >= candidates;
      const billed = done ? usage : undefined;
      // Gemini's running counts (the prompt's at least) are the floor of a stream that ends early.
      const ev: ParsedStreamEvent = { forward: undefined, text, done: false, ...(billed ? { usage: billed } : usage ? { reported: usage } : {}) };
      if (choices.length) {
        const chunk = { id, object: "chat.completion.chunk", created, model: publicModel, choices };
        ev.forward = JSON.stringify(chunk);
        ev.chunk = chunk;
      }
      if (billed && !usageSent) {
        usageSent = true;
        ev.usageForward = JSON.stringify({ id, object: "chat.completion.chunk", created, model: publicModel, choices: [], usage: chatCompletionUsage(billed) });
      }
      return ev;
    };
    return Object.assign(parse, {
      /** The connection closed: complete when every candidate finished, else broken off. */
      end: (): ParsedStreamEvent | undefined => (finished >= candidates ? { forward: undefined, text: "", done: true, ...(usage ? { usage } : {}) } : undefined),
    });
  },

  // A non-streamed request held in tranches: the stream's chunks, translated as they are for a
  // streamed client, make the chat.completion parseChatResponse gives for the JSON answer (the same
  // parts read the same way: thoughts counted, not shown; a call's id carrying its signature).
  collect(publicModel: string, upstreamModel: string, request?: ChatRequestBody): StreamCollector {
    const collector = new ChatCompletionCollector(chatCompletionUsage);
    return {
      parser: geminiChat.streamParser(publicModel, upstreamModel, request),
      take: (ev) => collector.take(ev),
      answer: () => ({ body: { ...collector.completion(), model: publicModel }, usage: collector.reported }),
    };
  },

  mapError: mapGeminiError,
};
