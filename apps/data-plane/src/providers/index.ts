import { anthropicChat } from "./anthropic/chat.js";
import { anthropicMessages } from "./anthropic/messages.js";
import { geminiChat } from "./gemini/chat.js";
import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { openAIEmbeddings, openAIImages } from "./openai-compatible/json-apis.js";
import { openAIChat } from "./openai/index.js";
import { openAIResponses } from "./openai/responses.js";
import { falVideo } from "./video/fal.js";
import { openAIVideo } from "./video/openai.js";
import type { ProviderAdapter, ProviderKind } from "./types.js";

export * from "./types.js";

const compatible: ProviderAdapter = { chat: openAICompatibleChat(), embeddings: openAIEmbeddings, images: openAIImages, video: openAIVideo };
const openai: ProviderAdapter = { chat: openAIChat, responses: openAIResponses, embeddings: openAIEmbeddings, images: openAIImages, video: openAIVideo };
const anthropic: ProviderAdapter = { chat: anthropicChat, messages: anthropicMessages };
const fal: ProviderAdapter = { video: falVideo };
const gemini: ProviderAdapter = { chat: geminiChat };

/** The adapter of a provider kind and what it can do. Exhaustive: a new kind without a case fails to compile. */
export function adapterFor(kind: ProviderKind): ProviderAdapter {
  switch (kind) {
    case "openai":
      return openai;
    case "openai-compatible":
      return compatible;
    case "anthropic":
      return anthropic;
    case "fal":
      return fal;
    case "gemini":
      return gemini;
    default: {
      const never: never = kind;
      throw new Error(`unknown provider kind ${String(never)}`);
    }
  }
}
