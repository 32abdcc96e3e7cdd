import type { ChatAdapter } from "../../providers/types.js";
import { openAIShape } from "../client-shape.js";
import { withOutputLimit, type OutputLimitField } from "../output-limit.js";
import { chatAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * Chat completions to a provider's chat adapter, which speaks its wire format: the same shape for
 * OpenAI-shaped providers (a passthrough: only the model and the output limit the hold covered
 * rewritten, the limit in `field`; their streams relayed by the adapter's passthrough), translated
 * by the adapter for the others (providers/<kind>/chat.ts, which have no passthrough). Answers come
 * back as chat completions.
 */
export const chatTo =
  (adapter: ChatAdapter, field: OutputLimitField): Translator<"chat"> =>
  ({ body, model }) =>
    bind(adapter, withOutputLimit(body, model, field), model, openAIShape(body, model.id), chatAnswerTexts, true);
