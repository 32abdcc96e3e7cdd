import type { Model } from "@gateway/proto";
import type { ChatRequestBody } from "../providers/types.js";

/** The chat-completions fields that limit the output: OpenAI's reasoning models read only the second. */
export type OutputLimitField = "max_tokens" | "max_completion_tokens";

/** The output tokens per choice a chat body asks for: the larger of its two limit fields when it sets both, the one it sets, or none. */
export function askedOutput(body: ChatRequestBody): number | undefined {
  const asked = Math.max(body.max_tokens ?? 0, body.max_completion_tokens ?? 0);
  return asked > 0 ? asked : undefined;
}

/** The output tokens per choice admission holds for a chat body: what it asks for, or the catalog's output limit. */
export function heldOutput(body: ChatRequestBody, model: Pick<Model, "max_output_tokens">): number {
  return askedOutput(body) ?? model.max_output_tokens;
}

/**
 * The body with exactly the limit the hold covered, in the one field the deployment reads: a body
 * without a limit would let the provider generate up to its own default (16k and more) against a
 * hold for the catalog's limit, and two fields would leave the provider to choose.
 */
export function withOutputLimit(body: ChatRequestBody, model: Pick<Model, "max_output_tokens">, field: OutputLimitField): ChatRequestBody {
  const limit = heldOutput(body, model);
  const { max_tokens: _max, max_completion_tokens: _completion, ...rest } = body;
  // A server that reads max_tokens by default keeps the client's own choice of max_completion_tokens:
  // OpenAI-compatible servers of reasoning models (Azure OpenAI's o-series) take only that one.
  const to = field === "max_tokens" && body.max_completion_tokens != null && body.max_tokens == null ? "max_completion_tokens" : field;
  return limit > 0 ? { ...rest, [to]: limit } : rest;
}
