import { GatewayError } from "@gateway/errors";
import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { anthropicChat } from "./anthropic/chat.js";
import { openAIChat } from "./openai/index.js";
import type { ChatAdapter, ProviderKind } from "./types.js";

export * from "./types.js";

const openai = openAICompatibleChat();

/** A queue-style video provider serves no chat: a deployment on it is skipped like a failure. */
const unsupportedChat: ChatAdapter = {
  buildChatRequest() {
    throw new GatewayError("model_unavailable", "This provider serves video only.");
  },
  parseChatResponse() {
    throw new GatewayError("model_unavailable", "This provider serves video only.");
  },
  streamParser() {
    throw new GatewayError("model_unavailable", "This provider serves video only.");
  },
  mapError(status) {
    return new GatewayError("upstream_error", `The provider failed with status ${status}.`);
  },
};

/** The chat adapter of a provider kind. Exhaustive: a new kind without a case fails to compile. */
export function chatAdapterFor(kind: ProviderKind): ChatAdapter {
  switch (kind) {
    case "openai":
      return openAIChat;
    case "openai-compatible":
      return openai;
    case "anthropic":
      return anthropicChat;
    case "fal":
      return unsupportedChat;
    default: {
      const never: never = kind;
      throw new Error(`unknown provider kind ${String(never)}`);
    }
  }
}
