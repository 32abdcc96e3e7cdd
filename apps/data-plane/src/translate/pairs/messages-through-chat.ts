import type { Model } from "@gateway/proto";
import type { ChatAdapter } from "../../providers/types.js";
import { anthropicToOpenAI } from "../anthropic-to-openai.js";
import { anthropicShape } from "../client-shape.js";
import { withOutputLimit, type OutputLimitField } from "../output-limit.js";
import { chatAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * Messages to a provider reached through its chat adapter: the body translated to chat completions
 * (a field with no equivalent there, such as top_k, is a 400; thinking becomes `reasoning_effort` on
 * a model that `reasons`, else it is left out and the answer says so in x-gateway-dropped-params),
 * answers and streams translated back to the Messages shape event by event.
 */
export const messagesThroughChat =
  (adapter: ChatAdapter, field: OutputLimitField, reasons: (model: Model) => boolean): Translator<"messages"> =>
  ({ body, model }) => {
    const through = { reasons: reasons(model), dropped: [] as string[] };
    const chat = withOutputLimit(anthropicToOpenAI(body, through), model, field);
    return bind(adapter, chat, model, anthropicShape(model.id), chatAnswerTexts, false, through.dropped);
  };
