import type { Model } from "@gateway/proto";

export interface BillableTokens {
  input_tokens: number;
  output_tokens: number;
}

/**
 * Cost in minor credit units: prices are per million tokens, the product is exact in integers
 * (tokens × price stays far below 2^53) and the request total is rounded up once.
 */
export function costMinor(tokens: BillableTokens, model: Pick<Model, "input_price_minor_per_mtok" | "output_price_minor_per_mtok">): number {
  const micro = tokens.input_tokens * model.input_price_minor_per_mtok + tokens.output_tokens * model.output_price_minor_per_mtok;
  return Math.ceil(micro / 1_000_000);
}

/** Output token count of delivered text when the upstream reported none (4 chars/token, rounded up). */
export function estimateTextTokens(text: string): number {
  return Math.ceil(text.length / 4);
}
