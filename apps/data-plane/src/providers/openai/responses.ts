import { GatewayError } from "@gateway/errors";
import { parseStreamEvent, PlainText } from "../sse.js";
import {
  announcing,
  isObject,
  type NormalizedUsage,
  type ResponsesRequestBody,
  type WireAdapter,
  type ParsedChatResponse,
  type ParsedStreamEvent,
  type StreamCollector,
  type StreamParser,
  type UpstreamTarget,
} from "../types.js";
import { mapOpenAIError, normalizeOpenAIUsage, openAIAuthHeaders } from "../openai-compatible/chat.js";

interface ResponsesUsage {
  input_tokens?: number;
  output_tokens?: number;
  input_tokens_details?: { cached_tokens?: number } | null;
  output_tokens_details?: { reasoning_tokens?: number } | null;
}

/**
 * The Responses API's usage (totals include cached input and reasoning output, as in chat). OpenAI
 * bills each built-in web search per call: the `web_search_call` items of the output.
 */
export function normalizeResponsesUsage(u: ResponsesUsage | null | undefined, output?: unknown, tier?: unknown): NormalizedUsage | undefined {
  if (!u || typeof u !== "object") return undefined;
  const usage = normalizeOpenAIUsage(
    {
      prompt_tokens: u.input_tokens,
      completion_tokens: u.output_tokens,
      prompt_tokens_details: u.input_tokens_details ?? null,
      completion_tokens_details: u.output_tokens_details ?? null,
    },
    tier,
  );
  const searches = Array.isArray(output) ? output.filter((i) => (i as { type?: unknown } | null)?.type === "web_search_call").length : 0;
  return usage && searches > 0 ? { ...usage, web_search_requests: searches } : usage;
}

/** Lifecycle events whose `response` object is rewritten for the client (model, store, previous_response_id). */
const LIFECYCLE = new Set(["response.created", "response.in_progress", "response.queued"]);

/** Deltas of generated output: counted when the provider reports no usage. */
const GENERATED: Record<string, true> = {
  "response.output_text.delta": true,
  "response.refusal.delta": true,
  "response.function_call_arguments.delta": true,
  "response.reasoning_summary_text.delta": true,
  "response.reasoning_text.delta": true,
};

/**
 * OpenAI's Responses API natively (POST /responses). The route builds the body (the client's
 * request with the earlier turns expanded into `input`, `store: false`, no `previous_response_id`:
 * the gateway keeps conversations itself, so any provider can continue them); here only `model` is
 * rewritten. Answers are the provider's Response objects; stream events go through as the provider
 * framed them, except the lifecycle events (whose Response the client shape rewrites) and the
 * terminal `response.completed` / `response.incomplete`, held back until the usage is durable.
 */
export const openAIResponses: WireAdapter<ResponsesRequestBody> = {
  buildChatRequest(body: ResponsesRequestBody, target: UpstreamTarget) {
    const headers: Record<string, string> = { "content-type": "application/json", accept: body.stream ? "text/event-stream" : "application/json", ...openAIAuthHeaders(target) };
    return { url: `${target.provider.base_url.replace(/\/+$/, "")}/responses`, headers, body: JSON.stringify({ ...body, model: target.deployment.upstream_model }) };
  },

  parseChatResponse: parseResponse,

  streamParser: (publicModel: string) => responsesStreamParser(publicModel),

  // A non-streamed request held in tranches: the Response of the terminal event (response.completed,
  // or response.incomplete), as the JSON answer would have been; its output from the items' done
  // events when the terminal event leaves it out (as OpenAI's SDK allows).
  collect(publicModel: string): StreamCollector {
    let response: Record<string, unknown> | undefined;
    const items: unknown[] = [];
    return {
      parser: responsesStreamParser(publicModel, true),
      take: (ev) => {
        const e = ev.chunk;
        if (!e) return;
        if (e.type === "response.output_item.done" && typeof e.output_index === "number") items[e.output_index] = e.item;
        else if (ev.done && isObject(e.response)) response = e.response;
      },
      answer: () => {
        if (!response) throw new GatewayError("upstream_error", "The provider's stream ended without its response.");
        return parseResponse(Array.isArray(response.output) ? response : { ...response, output: items.filter((i) => i !== undefined) }, publicModel);
      },
    };
  },

  // Responses to OpenAI: events go out as the provider framed them; lifecycle and terminal events,
  // errors and deltas of other kinds are parsed.
  passthrough: (publicModel: string) => ({ plain: plainResponsesEvents, parser: responsesStreamParser(publicModel) }),

  mapError: mapOpenAIError,
};

/**
 * Events a Responses passthrough sends as they came, with the characters the parser counts in them
 * (the `delta` of the generated kinds); lifecycle and terminal events, output items' starts and ends
 * (reasoning phases, searches run), errors and every other kind of delta (audio, say, which is not
 * text) are parsed.
 */
const plainResponsesEvents = new PlainText(
  ["delta"],
  String.raw`"type":\s*"(?:response\.(?:created|in_progress|queued|completed|incomplete|failed|output_item\.added|output_item\.done)"|error"|(?!response\.(?:output_text|refusal|function_call_arguments|reasoning_summary_text|reasoning_text)\.delta")[^"]*\.delta")`,
);

/** A Response answered by the provider, with the public model id (a failed one is the provider's failure). */
function parseResponse(json: unknown, publicModel: string): ParsedChatResponse {
  const r = json as { object?: unknown; output?: unknown; usage?: ResponsesUsage; status?: unknown; error?: { message?: unknown } | null } | null;
  if (!r || typeof r !== "object" || !Array.isArray(r.output)) throw new GatewayError("upstream_error", "The provider returned an invalid response.");
  if (r.status === "failed") throw new GatewayError("upstream_error", `The provider failed the response: ${String(r.error?.message ?? "unknown")}`);
  return { body: { ...(r as Record<string, unknown>), model: publicModel }, usage: normalizeResponsesUsage(r.usage, r.output, (r as { service_tier?: unknown }).service_tier) };
}

/** One Responses stream's events, parsed; `items`: finished output items handed on too (`chunk`), for a collector. */
function responsesStreamParser(publicModel: string, items = false): StreamParser {
  return announcing((data: string): ParsedStreamEvent => {
    const ev = parseStreamEvent<{ type?: string; delta?: unknown; response?: { model?: string; usage?: ResponsesUsage; output?: unknown; error?: { message?: unknown } | null }; message?: unknown }>(
      data,
    );
    const type = String(ev.type ?? "");
    if (ev.response && typeof ev.response === "object") ev.response.model = publicModel;
    if (type === "response.completed" || type === "response.incomplete") {
      const usage = normalizeResponsesUsage(ev.response?.usage, ev.response?.output, (ev.response as { service_tier?: unknown } | undefined)?.service_tier);
      return { forward: undefined, chunk: ev as Record<string, unknown>, ...(usage ? { usage } : {}), text: "", done: true };
    }
    if (type === "response.failed") throw new GatewayError("upstream_error", `The provider failed the response mid-stream: ${String(ev.response?.error?.message ?? "unknown")}`);
    if (type === "error") throw new GatewayError("upstream_error", `The provider reported an error mid-stream: ${String(ev.message ?? "unknown")}`);
    if (LIFECYCLE.has(type)) return { forward: undefined, chunk: ev as Record<string, unknown>, text: "", done: false };
    if (type === "response.output_item.added" || type === "response.output_item.done") {
      // A reasoning item is a phase of reasoning the stream shows none of (or a summary): its time
      // bounds what a stream cut short is billed; a finished web_search_call is a search billed.
      const itemType = (ev as { item?: { type?: unknown } }).item?.type;
      const added = type === "response.output_item.added";
      const searches = !added && itemType === "web_search_call" ? { searches: 1 } : {};
      return {
        forward: `event: ${type}\ndata: ${data}\n\n`,
        ...(items && !added ? { chunk: ev as Record<string, unknown> } : {}),
        text: "",
        done: false,
        thinking: added && itemType === "reasoning",
        ...searches,
      };
    }
    return { forward: `event: ${type}\ndata: ${data}\n\n`, text: GENERATED[type] && typeof ev.delta === "string" ? ev.delta : "", done: false };
  });
}
