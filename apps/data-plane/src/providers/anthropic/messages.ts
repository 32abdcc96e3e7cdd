import { GatewayError } from "@gateway/errors";
import { parseStreamEvent, PlainText } from "../sse.js";
import {
  announcing,
  type MessagesAdapter,
  type MessagesRequestBody,
  type MessagesHeaders,
  type ParsedChatResponse,
  type ParsedStreamEvent,
  type StreamPassthrough,
  type UpstreamTarget,
} from "../types.js";
import { estimateCharTokens } from "@gateway/pricing";
import { ANTHROPIC_VERSION, anthropicChat, blockPhase, messagesStreamUsage, normalize, type AnthropicUsage, type MessagesStreamEvent } from "./chat.js";

/**
 * The Messages API to an Anthropic deployment, natively: the client's body goes through with every
 * field the API accepts (thinking, top_k, cache_control, server tools, metadata, service_tier …),
 * only `model` rewritten to the deployment's; the answer and each stream event come back as the
 * provider sent them, only the model id replaced by the public one (in the answer and in
 * message_start). The client's anthropic-version and anthropic-beta headers are forwarded.
 */
export function anthropicMessages(h: MessagesHeaders): MessagesAdapter {
  const request = (path: string, body: Record<string, unknown>, target: UpstreamTarget, stream: boolean) => {
    const headers: Record<string, string> = {
      "content-type": "application/json",
      "anthropic-version": h.version || ANTHROPIC_VERSION,
      accept: stream ? "text/event-stream" : "application/json",
    };
    if (h.beta) headers["anthropic-beta"] = h.beta;
    if (target.apiKey) headers["x-api-key"] = target.apiKey;
    return { url: `${target.provider.base_url.replace(/\/+$/, "")}${path}`, headers, body: JSON.stringify({ ...body, model: target.deployment.upstream_model }) };
  };
  return {
    buildChatRequest: (body: MessagesRequestBody, target: UpstreamTarget) => request("/messages", body, target, body.stream === true),
    buildCountTokensRequest: (body, target) => request("/messages/count_tokens", body, target, false),
    parseChatResponse: (json: unknown, publicModel: string): ParsedChatResponse => {
      const m = json as { content?: unknown; usage?: AnthropicUsage } | null;
      if (!m || typeof m !== "object" || !Array.isArray(m.content)) throw new GatewayError("upstream_error", "The provider returned an invalid message.");
      return { body: { ...(m as Record<string, unknown>), model: publicModel }, usage: normalize(m.usage) };
    },
    streamParser: (publicModel: string) => messagesStream(publicModel).parser,
    passthrough: (publicModel: string) => messagesStream(publicModel),
    mapError: anthropicChat.mapError,
  };
}

/**
 * Events a Messages passthrough sends as they came (deltas, block stops, pings: no model id, no
 * usage), with the characters the parser would count in them (text, thinking and tool arguments,
 * which only deltas carry); message events, errors and block starts are parsed.
 */
const plainEvents = new PlainText(["text", "thinking", "partial_json"], String.raw`"type":\s*"(?:message_|error"|content_block_start")`);

/**
 * One Messages stream read natively: every event goes out as the provider framed it, only the model
 * id replaced in message_start; its parser reads usage, the end and errors, and counts what was
 * generated (text, thinking and tool arguments) for a provider that reports no usage. As a
 * passthrough, deltas, block stops and pings are not parsed: their generated characters are
 * counted from the JSON text.
 */
function messagesStream(publicModel: string): StreamPassthrough {
  const usageOf = messagesStreamUsage();
  // What was generated so far, in characters (the client's estimate when message_delta has no usage).
  let generated = 0;
  const parser = (data: string): ParsedStreamEvent => {
    // Also handed on parsed (`chunk`), for shapes that translate the events (Responses).
    const ev = parseStreamEvent<MessagesStreamEvent>(data);
    const type = String(ev.type ?? "");
    const frame = (payload: string) => `event: ${type}\ndata: ${payload}\n\n`;
    switch (type) {
      case "message_start": {
        const reported = usageOf.start(ev.message?.usage);
        if (ev.message) ev.message.model = publicModel;
        return { forward: frame(JSON.stringify(ev)), ...(reported ? { reported } : {}), text: "", done: false };
      }
      case "content_block_delta": {
        // Text, thinking and tool arguments are all output: counted if the provider reports no usage.
        const d = ev.delta;
        const text = (d?.type === "text_delta" ? d.text : d?.type === "thinking_delta" ? d.thinking : d?.type === "input_json_delta" ? d.partial_json : "") ?? "";
        generated += text.length;
        return { forward: frame(data), chunk: ev as Record<string, unknown>, text, done: false };
      }
      case "message_delta": {
        // No usage on the final delta: leave it unknown so the gateway counts what it delivered,
        // and give the client the count (the SDKs read message_delta.usage unconditionally).
        if (!ev.usage) return { forward: frame(JSON.stringify({ ...ev, usage: { output_tokens: estimateCharTokens(generated) } })), chunk: ev as Record<string, unknown>, text: "", done: false };
        return { forward: frame(data), chunk: ev as Record<string, unknown>, usage: usageOf.delta(ev.usage), text: "", done: false };
      }
      case "content_block_start":
        return { forward: frame(data), chunk: ev as Record<string, unknown>, text: "", done: false, ...blockPhase(ev) };
      case "message_stop":
        // Sent by the client shape's end, after the usage event is durable.
        return { forward: undefined, text: "", done: true };
      case "error":
        throw new GatewayError("upstream_error", `The provider reported an error mid-stream: ${ev.error?.message ?? "unknown"}`);
      default:
        return { forward: frame(data), chunk: ev as Record<string, unknown>, text: "", done: false };
    }
  };
  return { plain: plainEvents, parser: announcing(parser), counted: (chars) => (generated += chars) };
}
