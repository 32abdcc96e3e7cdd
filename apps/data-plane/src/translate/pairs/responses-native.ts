import { openAIResponses } from "../../providers/openai/responses.js";
import type { ResponsesRequestBody } from "../../providers/types.js";
import { responsesNativeShape } from "../client-shape.js";
import { isWebSearch, pricedSearches } from "../responses.js";
import { THINKING_STATE } from "../responses-to-messages.js";
import { responsesAnswerTexts } from "../texts.js";
import { bind, type Translator } from "../translation.js";

/**
 * The body a native Responses provider gets: the client's, with the earlier turns already in `input`,
 * `store: false` and no `previous_response_id` (the gateway keeps conversations, so any provider
 * can continue them), without reasoning items another provider's thinking encoded, and with an
 * output limit: the client's, or the catalog's (what the hold covered), never the provider's own.
 * With web search: `max_tool_calls` is the `searches` the hold covered; with `searches` 0 (no price
 * per search on the model) the search tool is left out.
 */
export function nativeResponsesBody(raw: ResponsesRequestBody, maxOutput: number, searches = 0): ResponsesRequestBody {
  const { previous_response_id: _previous, ...body } = raw;
  const input = Array.isArray(raw.input)
    ? (raw.input as Array<Record<string, unknown>>).filter((i) => !(i.type === "reasoning" && typeof i.encrypted_content === "string" && i.encrypted_content.startsWith(THINKING_STATE)))
    : raw.input;
  const limit = typeof raw.max_output_tokens === "number" || maxOutput <= 0 ? {} : { max_output_tokens: maxOutput };
  const out: ResponsesRequestBody = { ...body, ...limit, input, store: false };
  if (searches > 0) out.max_tool_calls = searches;
  else if (Array.isArray(raw.tools) && raw.tools.some(isWebSearch)) {
    const tools = raw.tools.filter((t) => !isWebSearch(t));
    if (tools.length) out.tools = tools;
    else {
      delete out.tools;
      delete out.tool_choice;
    }
  }
  return out;
}

/** Responses to a provider that speaks the Responses API (OpenAI): natively, its Response objects and events passed on. */
export const responsesToOpenAI: Translator<"responses"> = ({ body, keep, model }) => {
  const { searches, dropped } = pricedSearches(body, model);
  return bind(openAIResponses, nativeResponsesBody(body, model.max_output_tokens, searches), model, responsesNativeShape(body, keep), responsesAnswerTexts, true, dropped);
};
