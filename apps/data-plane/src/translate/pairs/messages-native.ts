import { anthropicMessages } from "../../providers/anthropic/messages.js";
import { anthropicNativeShape } from "../native-shape.js";
import { messagesAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * Messages to a provider that speaks the Messages API (Anthropic): the body goes through as it is
 * (every field, only the model rewritten; the client's anthropic-version and anthropic-beta
 * headers forwarded) and the answer and stream events come back as the provider sent them.
 */
export const messagesToAnthropic: Translator<"messages"> = ({ body, headers, model }) => bind(anthropicMessages(headers), body, model, anthropicNativeShape(), messagesAnswerTexts, true);
