import type { ChatAdapter } from "../../providers/types.js";
import { anthropicToOpenAI } from "../anthropic-to-openai.js";
import { anthropicShape } from "../client-shape.js";
import { withOutputLimit, type OutputLimitField } from "../output-limit.js";
import { chatAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * Messages to a provider reached through its chat adapter: the body translated to chat completions
 * (a field with no equivalent there, such as thinking or top_k, is a 400), answers and streams
 * translated back to the Messages shape event by event.
 */
export const messagesThroughChat =
  (adapter: ChatAdapter, field: OutputLimitField): Translator<"messages"> =>
  ({ body, model }) =>
    bind(adapter, withOutputLimit(anthropicToOpenAI(body), model, field), model, anthropicShape(model.id), chatAnswerTexts);
