import type { ChatAdapter } from "../../providers/types.js";
import { responsesShape } from "../client-shape.js";
import { withOutputLimit, type OutputLimitField } from "../output-limit.js";
import { droppedThroughChat } from "../responses.js";
import { chatAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/** Responses to a provider reached through its chat adapter: the body as chat completions (with the output limit the hold covered), answers and streams back as Responses. */
export const responsesThroughChat =
  (adapter: ChatAdapter, field: OutputLimitField): Translator<"responses"> =>
  ({ body, chat, echo, keep, model }) =>
    bind(adapter, withOutputLimit(chat(), model, field), model, responsesShape(echo, keep), chatAnswerTexts, false, droppedThroughChat(body));
