import { GatewayError } from "@gateway/errors";
import type { MessagesAdapter, MessagesRequestBody, MessagesHeaders, ParsedChatResponse, UpstreamTarget } from "../types.js";
import { ANTHROPIC_VERSION, anthropicChat } from "./chat.js";
import { messagesCollector, messagesStream, normalize, type AnthropicUsage } from "./messages-stream.js";

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
    parseChatResponse: parseMessage,
    streamParser: (publicModel: string) => messagesStream(publicModel).parser,
    passthrough: (publicModel: string) => messagesStream(publicModel),
    // A non-streamed request held in tranches: the events make the Message the JSON would have been.
    collect: (publicModel: string) => messagesCollector(publicModel, (message) => parseMessage(message, publicModel)),
    mapError: anthropicChat.mapError,
  };
}

/** A Message answered by the provider, with the public model id. */
function parseMessage(json: unknown, publicModel: string): ParsedChatResponse {
  const m = json as { content?: unknown; usage?: AnthropicUsage } | null;
  if (!m || typeof m !== "object" || !Array.isArray(m.content)) throw new GatewayError("upstream_error", "The provider returned an invalid message.");
  return { body: { ...(m as Record<string, unknown>), model: publicModel }, usage: normalize(m.usage) };
}
