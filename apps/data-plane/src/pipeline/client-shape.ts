import type { GatewayError } from "@gateway/errors";
import type { ChatRequestBody, NormalizedUsage, ParsedStreamEvent } from "../providers/types.js";
import { AnthropicStreamWriter, completionToMessage } from "../translate/openai-to-anthropic.js";
import { ResponsesStreamWriter, completionToResponse, type ResponseEcho } from "../translate/responses.js";

/** Writes one stream in the client's shape. */
export interface StreamWriter {
  /** Frames for one upstream event; empty when there is nothing to send yet. */
  chunk(ev: ParsedStreamEvent): string;
  /** Frames that end a complete stream, with the billed usage. */
  end(usage: NormalizedUsage): string;
  /** The explicit error event that ends a broken stream. */
  error(err: GatewayError, requestId: string): string;
}

/**
 * The client's API shape on the way out: the OpenAI chat-completions shape, or the Anthropic
 * Messages or OpenAI Responses shape translated from it. Providers are always called in their own
 * shape.
 */
export interface ClientShape {
  route: "chat" | "messages" | "responses";
  body(openai: Record<string, unknown>, usage: NormalizedUsage): unknown;
  stream(): StreamWriter;
}

export function openAIShape(req: ChatRequestBody, _publicModel: string): ClientShape {
  const wantsUsage = req.stream_options?.include_usage === true;
  return {
    route: "chat",
    body: (openai) => openai,
    stream: () => ({
      chunk: (ev) =>
        (ev.forward === undefined || (ev.usageOnly && !wantsUsage) ? "" : `data: ${ev.forward}\n\n`) +
        (ev.usageForward && wantsUsage ? `data: ${ev.usageForward}\n\n` : ""),
      end: () => "data: [DONE]\n\n",
      error: (e, requestId) => `data: ${JSON.stringify({ error: { message: e.message, type: e.type, code: e.code, request_id: requestId } })}\n\n`,
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

export function responsesShape(echo: ResponseEcho): ClientShape {
  return {
    route: "responses",
    body: (openai, usage) => completionToResponse(openai, usage, echo),
    stream: () => {
      const w = new ResponsesStreamWriter(echo);
      return {
        chunk: (ev) => (ev.chunk ? w.chunk(ev.chunk) : ""),
        end: (usage) => w.end(usage),
        error: (e) => w.error(e),
      };
    },
  };
}
