import { openAIResponses } from "../../providers/openai/responses.js";
import type { ResponsesRequestBody } from "../../providers/types.js";
import { responsesNativeShape } from "../client-shape.js";
import { THINKING_STATE } from "../responses-to-messages.js";
import { responsesAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * The body a native Responses provider gets: the client's, with the earlier turns already in `input`,
 * `store: false` and no `previous_response_id` (the gateway keeps conversations, so any provider
 * can continue them), without reasoning items another provider's thinking encoded, and with an
 * output limit: the client's, or the catalog's (what the hold covered), never the provider's own.
 */
export function nativeResponsesBody(raw: ResponsesRequestBody, maxOutput: number): ResponsesRequestBody {
  const { previous_response_id: _previous, ...body } = raw;
  const input = Array.isArray(raw.input)
    ? (raw.input as Array<Record<string, unknown>>).filter((i) => !(i.type === "reasoning" && typeof i.encrypted_content === "string" && i.encrypted_content.startsWith(THINKING_STATE)))
    : raw.input;
  const limit = typeof raw.max_output_tokens === "number" || maxOutput <= 0 ? {} : { max_output_tokens: maxOutput };
  return { ...body, ...limit, input, store: false };
}

/** Responses to a provider that speaks the Responses API (OpenAI): natively, its Response objects and events passed on. */
export const responsesToOpenAI: Translator<"responses"> = ({ body, keep, model }) =>
  bind(openAIResponses, nativeResponsesBody(body, model.max_output_tokens), model, responsesNativeShape(body, keep), responsesAnswerTexts, true);
