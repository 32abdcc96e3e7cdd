import { openAICompatibleChat } from "../openai-compatible/chat.js";

/**
 * OpenAI itself: the OpenAI-compatible base as is (chat completions, embeddings and image
 * generations speak the reference shape). Kept as its own adapter so OpenAI-only behaviour has a
 * home without touching the thin vendors that reuse the base.
 */
export const openAIChat = openAICompatibleChat();
