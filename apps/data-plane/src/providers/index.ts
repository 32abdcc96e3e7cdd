import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { anthropicChat } from "./anthropic/chat.js";
import { openAIChat } from "./openai/index.js";
import type { ChatAdapter, ProviderKind } from "./types.js";

export * from "./types.js";

const openai = openAICompatibleChat();

/** The chat adapter of a provider kind. Exhaustive: a new kind without a case fails to compile. */
export function chatAdapterFor(kind: ProviderKind): ChatAdapter {
  switch (kind) {
    case "openai":
      return openAIChat;
    case "openai-compatible":
      return openai;
    case "anthropic":
      return anthropicChat;
    default: {
      const never: never = kind;
      throw new Error(`unknown provider kind ${String(never)}`);
    }
  }
}
