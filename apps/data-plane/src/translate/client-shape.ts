import { toErrorBody, type GatewayError } from "@gateway/errors";
import type { ClientApi } from "./translation.js";
import type { ChatRequestBody, NormalizedUsage, ParsedStreamEvent, StreamCollector } from "../providers/types.js";
import { AnthropicStreamWriter, completionToMessage } from "./openai-to-anthropic.js";
import { ResponsesStreamWriter, completionToResponse, responsesUsage, type ResponseEcho } from "./responses-output.js";
import { messageToResponse, messagesStreamToResponses } from "./responses-to-messages.js";

/** Writes one stream in the client's shape. */
export interface StreamWriter {
  /** Frames for one upstream event; empty when there is nothing to send yet. */
  chunk(ev: ParsedStreamEvent): string;
  /** Frames that end a complete stream, with the billed usage. */
  end(usage: NormalizedUsage): string;
  /** The explicit error event that ends a broken stream. */
  error(err: GatewayError, requestId: string): string;
  /**
   * Stores the complete answer before end() is written (the Responses API's `store`), so end()
   * says whether it was stored; never rejects.
   */
  keep?(usage: NormalizedUsage): Promise<void>;
  /** Sees the terminal upstream event (which is not sent: end() says how the stream ends). */
  done?(ev: ParsedStreamEvent): void;
  /**
   * Sees how many events a passthrough sent as they came, without chunk() (for shapes that number
   * their events); a writer with it gets the counts.
   */
  passed?(events: number): void;
}

/**
 * The writer of a stream no client reads frame by frame: a non-streamed request streamed from its
 * provider (held in tranches, pipeline/chat.ts). It writes nothing; every parsed event, the terminal
 * one included, goes to the collector that makes the whole answer of it.
 */
export function collectingWriter(c: StreamCollector): StreamWriter {
  return {
    chunk: (ev) => {
      c.take(ev);
      return "";
    },
    done: (ev) => c.take(ev),
    end: () => "",
    error: () => "",
  };
}

/**
 * The client's API shape on the way out: the OpenAI chat-completions shape, or the Anthropic
 * Messages or OpenAI Responses shape translated from it. Providers are always called in their own
 * shape.
 */
export interface ClientShape {
  route: ClientApi;
  body(openai: Record<string, unknown>, usage: NormalizedUsage): unknown;
  stream(): StreamWriter;
  /**
   * Stores `body()`'s answer before it is released (the Responses API's `store`), marking in it
   * whether it was stored; resolves whether it was, never rejects: an answer is never withheld
   * for storage.
   */
  keep?(answer: unknown): Promise<boolean>;
}

/** Stores a complete Response; resolves whether it was stored. */
type Keep = (response: Record<string, unknown>) => Promise<boolean>;

/**
 * Storage for the shapes whose answers are Responses (the Responses API's `store`): the answer's
 * keep and the stream writer's (of its final Response), each marking `store` in the Response with
 * the outcome. Empty when the request did not ask for storage.
 */
function storage(keep: Keep | undefined) {
  const kept = keep && (async (response: Record<string, unknown>) => (response.store = await keep(response)));
  return {
    answer: kept ? { keep: (answer: unknown) => kept(answer as Record<string, unknown>) } : {},
    stream: (final: (usage: NormalizedUsage) => Record<string, unknown>) => (kept ? { keep: async (usage: NormalizedUsage) => void (await kept(final(usage))) } : {}),
  };
}

export function openAIShape(req: ChatRequestBody, _publicModel: string): ClientShape {
  const wantsUsage = req.stream_options?.include_usage === true;
  return {
    route: "chat",
    body: (openai) => openai,
    stream: () => ({
      chunk: (ev) => (ev.forward === undefined || (ev.usageOnly && !wantsUsage) ? "" : `data: ${ev.forward}\n\n`) + (ev.usageForward && wantsUsage ? `data: ${ev.usageForward}\n\n` : ""),
      end: () => "data: [DONE]\n\n",
      // The spec's error object, as a non-streamed answer's (a budget's refusal names the budget).
      error: (e, requestId) => `data: ${JSON.stringify(toErrorBody(e, requestId))}\n\n`,
    }),
  };
}

export function anthropicShape(publicModel: string): ClientShape {
  return {
    route: "messages",
    body: (openai, usage) => completionToMessage(openai, publicModel, usage),
    stream: () => {
      const w = new AnthropicStreamWriter(publicModel);
      return {
        chunk: (ev) => (ev.chunk ? w.chunk(ev.chunk) : ""),
        end: (usage) => w.end(usage),
        error: (e) => w.error(e.type === "overloaded_error" ? "overloaded_error" : "api_error", e.message),
      };
    },
  };
}

/**
 * A Responses shape translated from another wire format: `body` builds the Response, `translate`
 * turns one upstream event into Responses events on the stream's writer. `keep` stores a Response
 * (and marks `store` in it with the outcome) when the request asked for storage.
 */
function translatedResponses(echo: ResponseEcho, keep: Keep | undefined, body: ClientShape["body"], translate: (w: ResponsesStreamWriter) => StreamWriter["chunk"]): ClientShape {
  const stored = storage(keep);
  return {
    route: "responses",
    body,
    stream: () => {
      const w = new ResponsesStreamWriter(echo);
      return { chunk: translate(w), end: (usage) => w.end(usage), error: (e) => w.error(e), ...stored.stream((usage) => w.final(usage)) };
    },
    ...stored.answer,
  };
}

/** The Responses shape translated from chat completions. */
export const responsesShape = (echo: ResponseEcho, keep?: Keep): ClientShape =>
  translatedResponses(
    echo,
    keep,
    (openai, usage) => completionToResponse(openai, usage, echo),
    (w) => (ev) => (ev.chunk ? w.chunk(ev.chunk) : ""),
  );

/**
 * The Responses shape when the provider answered in it (a native passthrough): its Response, with
 * what the gateway owns put back as the client asked (`store`, then marked with the outcome;
 * `previous_response_id`, which the provider never saw). Stream events go out as the provider
 * framed them; lifecycle events are re-framed with that Response, and the terminal one is held
 * back until the usage event is durable (and the response stored).
 */
export function responsesNativeShape(request: Record<string, unknown>, keep?: Keep): ClientShape {
  const stored = storage(keep);
  const own = (response: Record<string, unknown>) => {
    response.store = request.store !== false;
    response.previous_response_id = typeof request.previous_response_id === "string" ? request.previous_response_id : null;
    return response;
  };
  const frame = (ev: Record<string, unknown>) => `event: ${String(ev.type)}\ndata: ${JSON.stringify(ev)}\n\n`;
  return {
    route: "responses",
    body: (response) => own(response),
    stream: () => {
      let events = 0;
      let last: Record<string, unknown> | undefined;
      const final = (usage: NormalizedUsage) => {
        const response = own(((last ??= { type: "response.completed", response: {} }).response ?? {}) as Record<string, unknown>);
        response.usage ??= responsesUsage(usage);
        return response;
      };
      return {
        chunk: (ev) => {
          events++;
          if (!ev.chunk) return ev.forward ?? "";
          own((ev.chunk.response ?? {}) as Record<string, unknown>);
          return frame(ev.chunk);
        },
        done: (ev) => {
          last = ev.chunk;
        },
        passed: (n) => {
          events += n;
        },
        end: (usage) => {
          final(usage);
          return frame(last!);
        },
        error: (e) => frame({ type: "error", sequence_number: events, code: e.code, message: e.message, param: null }),
        ...stored.stream(final),
      };
    },
    ...stored.answer,
  };
}

/** The Responses shape translated from an Anthropic deployment's Messages answer or stream (not via chat). */
export const responsesFromMessagesShape = (echo: ResponseEcho, structured: string | undefined, keep?: Keep): ClientShape =>
  translatedResponses(
    echo,
    keep,
    (message, usage) => messageToResponse(message, usage, echo, structured),
    (w) => {
      const translate = messagesStreamToResponses(w, structured);
      return (ev) => translate(ev.chunk);
    },
  );
