import type { ChatAdapter } from "../../providers/types.js";
import { responsesShape } from "../client-shape.js";
import { chatAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/** Responses to a provider reached through its chat adapter: the body as chat completions, answers and streams back as Responses. */
export const responsesThroughChat =
  (adapter: ChatAdapter): Translator<"responses"> =>
  ({ chat, echo, keep, model }) =>
    bind(adapter, chat(), model, responsesShape(echo, keep), chatAnswerTexts);
