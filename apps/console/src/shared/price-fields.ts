/**
 * A model's price fields in the catalog document, as the console names them (docs/console.md,
 * "Catalog"): the operator's price form has one input per field, the review of a change and the
 * audit log name the field as a person reads it, and the models page lists each kind a model has.
 */

/** One price field of a model: its catalog name, what people call it, what it is per, and what an empty one means. */
export interface PriceField {
  field: string;
  label: string;
  per: string;
  /** What the catalog does without it (null); undefined: the field is required. */
  unset?: string;
}

/** The per-token and per-use price fields, in the order the form and the models page show them. */
export const PRICE_FIELDS: readonly PriceField[] = [
  { field: "input_price_minor_per_mtok", label: "Input", per: "1M tokens" },
  { field: "cached_input_price_minor_per_mtok", label: "Cached input", per: "1M tokens", unset: "the input price" },
  { field: "cache_write_price_minor_per_mtok", label: "Cache writes", per: "1M tokens", unset: "the input price" },
  { field: "output_price_minor_per_mtok", label: "Output", per: "1M tokens" },
  { field: "reasoning_price_minor_per_mtok", label: "Reasoning", per: "1M tokens", unset: "the output price" },
  { field: "long_context_input_price_minor_per_mtok", label: "Long-context input", per: "1M tokens", unset: "the input price" },
  { field: "long_context_output_price_minor_per_mtok", label: "Long-context output", per: "1M tokens", unset: "the output price" },
  { field: "audio_input_price_minor_per_mtok", label: "Audio input", per: "1M tokens", unset: "no audio input" },
  { field: "audio_output_price_minor_per_mtok", label: "Audio output", per: "1M tokens", unset: "no audio output" },
  { field: "web_search_price_minor", label: "Web search", per: "search", unset: "web search refused" },
];

/** Other model fields the review and the audit log name. */
const OTHER_LABELS: Record<string, string> = {
  image_prices: "Image prices",
  video: "Video",
  long_context_threshold_tokens: "Long-context threshold (tokens)",
  context_window: "Context window",
  max_output_tokens: "Max output tokens",
  routes: "Routes",
  status: "Status",
  deployments: "Deployments",
};

/** A catalog field as people read it: "Input price per 1M tokens"; an unknown field keeps its name. */
export function fieldLabel(field: string): string {
  const price = PRICE_FIELDS.find((p) => p.field === field);
  if (price) return `${price.label} price per ${price.per}`;
  return OTHER_LABELS[field] ?? field;
}
