import type { ChatAdapter } from "../../providers/types.js";
import { openAIShape } from "../client-shape.js";
import { chatAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * Chat completions to a provider's chat adapter, which speaks its wire format: the same shape for
 * OpenAI-shaped providers (a passthrough, only the model rewritten), translated by the adapter for
 * the others (providers/<kind>/chat.ts). Answers come back as chat completions.
 */
export const chatTo =
  (adapter: ChatAdapter): Translator<"chat"> =>
  ({ body, model }) =>
    bind(adapter, body, model, openAIShape(body, model.id), chatAnswerTexts);
