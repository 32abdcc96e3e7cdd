import { anthropicMessages } from "../../providers/anthropic/messages.js";
import { responsesFromMessagesShape } from "../client-shape.js";
import { pricedSearches } from "../responses.js";
import { responsesToMessages } from "../responses-to-messages.js";
import { messagesAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * Responses to a provider that speaks the Messages API (Anthropic), directly (not through the chat
 * shape, so thinking, its signatures and structured output survive): translate/responses-to-messages.ts.
 */
export const responsesToAnthropic: Translator<"responses"> = ({ body, echo, keep, headers, model }) => {
  const { searches, dropped } = pricedSearches(body, model);
  const { body: messages, structured } = responsesToMessages(body, model.max_output_tokens, searches);
  return bind(anthropicMessages(headers), messages, model, responsesFromMessagesShape(echo, structured, keep), messagesAnswerTexts, false, dropped);
};
