import type { LineItem } from "@gateway/events";
import type { Deployment, Model } from "@gateway/proto";

/**
 * Token counts as the gateway normalizes them (docs/billing.md, "Token accounting"): the three
 * optional counts are parts of the two totals, never added to them.
 */
export interface BillableTokens {
  /** Every prompt token, cache reads and cache writes included. */
  input_tokens: number;
  /** Every completion token, reasoning included. */
  output_tokens: number;
  /** Of input_tokens: read from the provider's prompt cache. */
  cached_input_tokens?: number;
  /** Of input_tokens: written to the provider's prompt cache. */
  cache_creation_input_tokens?: number;
  /** Of output_tokens: reasoning (thinking) tokens. */
  reasoning_tokens?: number;
  /** Of input_tokens: audio (OpenAI's prompt_tokens_details.audio_tokens). */
  audio_input_tokens?: number;
  /** Of output_tokens: audio (OpenAI's completion_tokens_details.audio_tokens). */
  audio_output_tokens?: number;
  /** Web searches the provider ran (a server tool billed per use, beside the tokens). */
  web_search_requests?: number;
}

/**
 * A model's prices, as a catalog's Model carries them or a price sheet (JSON) does. The threshold
 * may be absent in a sheet (no long-context prices); the proto3 `optional` prices are absent when
 * unset (the defaults apply).
 */
export type PricedModel = Pick<
  Model,
  | "input_price_minor_per_mtok"
  | "output_price_minor_per_mtok"
  | "cached_input_price_minor_per_mtok"
  | "cache_write_price_minor_per_mtok"
  | "reasoning_price_minor_per_mtok"
  | "web_search_price_minor"
  | "long_context_input_price_minor_per_mtok"
  | "long_context_output_price_minor_per_mtok"
  | "audio_input_price_minor_per_mtok"
  | "audio_output_price_minor_per_mtok"
> &
  Partial<Pick<Model, "long_context_threshold_tokens">>;

/** A price scaled as its base was: `cost` for `base`, so `price` becomes price × cost / base (cost itself when the base is free). */
const scaled = (price: number, base: number, cost: number | undefined) => (cost === undefined ? price : base > 0 ? Math.round((price * cost) / base) : cost);

/**
 * The prices a request with `inputTokens` prompt tokens is charged at: the model's, or above its
 * long-context threshold (Gemini: 200k) the long-context input and output prices, the cache and
 * reasoning prices scaled by the same ratio, for every token of the request (docs/billing.md,
 * "Long context").
 */
export function pricesFor(model: PricedModel, inputTokens: number): PricedModel {
  const threshold = model.long_context_threshold_tokens ?? 0;
  if (threshold <= 0 || inputTokens <= threshold) return model;
  const li = model.long_context_input_price_minor_per_mtok;
  const lo = model.long_context_output_price_minor_per_mtok;
  return rescaled(model, tokenPrices(model), li, lo);
}

/**
 * The model's prices with new input and output prices (`input`, `output`; undefined: unchanged), its
 * cache, reasoning and audio prices scaled as those were.
 */
function rescaled(model: PricedModel, p: TokenPrices, input: number | undefined, output: number | undefined): PricedModel {
  const ai = model.audio_input_price_minor_per_mtok;
  const ao = model.audio_output_price_minor_per_mtok;
  return {
    input_price_minor_per_mtok: input ?? p.input,
    cached_input_price_minor_per_mtok: scaled(p.cachedInput, p.input, input),
    cache_write_price_minor_per_mtok: scaled(p.cacheWrite, p.input, input),
    output_price_minor_per_mtok: output ?? p.output,
    reasoning_price_minor_per_mtok: scaled(p.reasoning, p.output, output),
    web_search_price_minor: model.web_search_price_minor,
    ...(ai !== undefined ? { audio_input_price_minor_per_mtok: scaled(ai, p.input, input) } : {}),
    ...(ao !== undefined ? { audio_output_price_minor_per_mtok: scaled(ao, p.output, output) } : {}),
  };
}

/** A model's token prices, minor credit units per million, with the catalog's defaults applied. */
export type TokenPrices = ReturnType<typeof tokenPrices>;

export function tokenPrices(model: PricedModel) {
  return {
    input: model.input_price_minor_per_mtok,
    cachedInput: model.cached_input_price_minor_per_mtok ?? model.input_price_minor_per_mtok,
    cacheWrite: model.cache_write_price_minor_per_mtok ?? model.input_price_minor_per_mtok,
    output: model.output_price_minor_per_mtok,
    reasoning: model.reasoning_price_minor_per_mtok ?? model.output_price_minor_per_mtok,
    // No audio in the catalog (none offered; a provider reporting some anyway): the input price.
    audioInput: model.audio_input_price_minor_per_mtok ?? model.input_price_minor_per_mtok,
    audioOutput: model.audio_output_price_minor_per_mtok ?? model.output_price_minor_per_mtok,
  };
}

const PER_MTOK = "1M tokens";

/**
 * The token line items of a request: every token in exactly one item at exactly one price. Prompt
 * tokens split into cache reads, cache writes and the rest (`input_tokens`); completion tokens into
 * reasoning and the rest (`output_tokens`). A part larger than what is left of its total (a provider
 * reporting more cached than prompt tokens) is capped, so the items always add up to the totals.
 * `input_tokens` and `output_tokens` are always listed, the other three when non-zero.
 */
export function tokenLineItems(tokens: BillableTokens, model: PricedModel): LineItem[] {
  const p = tokenPrices(pricesFor(model, Math.max(0, tokens.input_tokens)));
  const input = Math.max(0, tokens.input_tokens);
  const output = Math.max(0, tokens.output_tokens);
  const cached = clamp(tokens.cached_input_tokens, input);
  const written = clamp(tokens.cache_creation_input_tokens, input - cached);
  const audioIn = clamp(tokens.audio_input_tokens, input - cached - written);
  const reasoning = clamp(tokens.reasoning_tokens, output);
  const audioOut = clamp(tokens.audio_output_tokens, output - reasoning);
  const items: LineItem[] = [{ item: "input_tokens", quantity: input - cached - written - audioIn, unit_price_minor: p.input, per: PER_MTOK }];
  if (cached > 0) items.push({ item: "cached_input_tokens", quantity: cached, unit_price_minor: p.cachedInput, per: PER_MTOK });
  if (written > 0) items.push({ item: "cache_creation_input_tokens", quantity: written, unit_price_minor: p.cacheWrite, per: PER_MTOK });
  if (audioIn > 0) items.push({ item: "audio_input_tokens", quantity: audioIn, unit_price_minor: p.audioInput, per: PER_MTOK });
  items.push({ item: "output_tokens", quantity: output - reasoning - audioOut, unit_price_minor: p.output, per: PER_MTOK });
  if (reasoning > 0) items.push({ item: "reasoning_tokens", quantity: reasoning, unit_price_minor: p.reasoning, per: PER_MTOK });
  if (audioOut > 0) items.push({ item: "audio_output_tokens", quantity: audioOut, unit_price_minor: p.audioOutput, per: PER_MTOK });
  return items;
}

/** A request's line items: its tokens, and the web searches it ran (each at the model's price per search). */
export function usageLineItems(usage: BillableTokens, model: PricedModel): LineItem[] {
  const items = tokenLineItems(usage, model);
  const searches = Math.max(0, Math.trunc(usage.web_search_requests ?? 0));
  if (searches > 0) items.push({ item: "web_search_requests", quantity: searches, unit_price_minor: model.web_search_price_minor ?? 0, per: "search" });
  return items;
}

/**
 * Cost in minor credit units of line items: those priced per million tokens summed exactly in
 * integers (tokens × price stays far below 2^53) and rounded up once; the others (per search) are
 * whole minor units each.
 */
export function lineItemsCostMinor(items: readonly LineItem[]): number {
  let micro = 0;
  let minor = 0;
  for (const i of items) {
    if (i.per === PER_MTOK) micro += i.quantity * i.unit_price_minor;
    else minor += i.quantity * i.unit_price_minor;
  }
  return Math.ceil(micro / 1_000_000) + minor;
}

/** Cost in minor credit units: the sum of {@link usageLineItems}, rounded up once per request. */
export function costMinor(usage: BillableTokens, model: PricedModel): number {
  return lineItemsCostMinor(usageLineItems(usage, model));
}

/**
 * The most a request of at most `inputTokens` prompt and `outputTokens` completion tokens can cost,
 * for the hold: whichever way the provider splits them (cache reads and writes, reasoning), each
 * prompt token costs at most the dearest prompt price and each completion token the dearest
 * completion price (a cache write is 1.25× the input price at Anthropic).
 */
export function maxTokenCostMinor(inputTokens: number, outputTokens: number, model: PricedModel, audio: AudioUse = NO_AUDIO): number {
  const p = tokenPrices(pricesFor(model, inputTokens));
  return Math.ceil((inputTokens * dearestInput(p, audio) + outputTokens * dearestOutput(p, audio)) / 1_000_000);
}

/** Whether a request sends audio (input) or asks for it (output): only then are its tokens held at the audio prices. */
export interface AudioUse {
  input: boolean;
  output: boolean;
}
export const NO_AUDIO: AudioUse = { input: false, output: false };

/** The dearest price one prompt token of the request can cost: cache reads and writes, and audio when it sends some. */
export function dearestInput(p: TokenPrices, audio: AudioUse = NO_AUDIO): number {
  return Math.max(p.input, p.cachedInput, p.cacheWrite, audio.input ? p.audioInput : 0);
}

/** The dearest price one completion token can cost: reasoning, and audio when the request asks for it. */
export function dearestOutput(p: TokenPrices, audio: AudioUse = NO_AUDIO): number {
  return Math.max(p.output, p.reasoning, audio.output ? p.audioOutput : 0);
}

function clamp(part: number | undefined, total: number): number {
  return Math.min(Math.max(0, part ?? 0), total);
}

/** Output token count of generated characters when the upstream reported none (4 chars/token, rounded up). */
export function estimateCharTokens(chars: number): number {
  return Math.ceil(chars / 4);
}

/** A deployment's cost prices (docs/billing.md, "Attempts and who pays", "Reconciliation"), minor units per million tokens. */
export type DeploymentCosts = Pick<
  Deployment,
  "cost_input_price_minor_per_mtok" | "cost_output_price_minor_per_mtok" | "cost_cached_input_price_minor_per_mtok" | "cost_cache_write_price_minor_per_mtok" | "cost_reasoning_price_minor_per_mtok"
>;

/**
 * The token prices a deployment's provider charges the operator (docs/billing.md, "Attempts and who
 * pays"): the deployment's input and output cost prices, its cached-input, cache-write and reasoning
 * cost prices where it states them, else the model's prices for those scaled by the same ratio as
 * the input (output) price; a deployment without cost prices is charged at the model's prices.
 */
export function providerPrices(model: PricedModel, d: DeploymentCosts): PricedModel {
  const ci = d.cost_input_price_minor_per_mtok;
  const co = d.cost_output_price_minor_per_mtok;
  const cc = d.cost_cached_input_price_minor_per_mtok;
  const cw = d.cost_cache_write_price_minor_per_mtok;
  const cr = d.cost_reasoning_price_minor_per_mtok;
  if (ci === undefined && co === undefined && cc === undefined && cw === undefined && cr === undefined) return model;
  const p = tokenPrices(model);
  const li = model.long_context_input_price_minor_per_mtok;
  const lo = model.long_context_output_price_minor_per_mtok;
  return {
    ...rescaled(model, p, ci, co),
    // A class's own cost price, where the deployment states one, over the scaled one.
    ...(cc !== undefined ? { cached_input_price_minor_per_mtok: cc } : {}),
    ...(cw !== undefined ? { cache_write_price_minor_per_mtok: cw } : {}),
    ...(cr !== undefined ? { reasoning_price_minor_per_mtok: cr } : {}),
    // The provider's long-context prices in the same ratio to its normal ones.
    ...(model.long_context_threshold_tokens ? { long_context_threshold_tokens: model.long_context_threshold_tokens } : {}),
    ...(li !== undefined ? { long_context_input_price_minor_per_mtok: scaled(li, p.input, ci) } : {}),
    ...(lo !== undefined ? { long_context_output_price_minor_per_mtok: scaled(lo, p.output, co) } : {}),
  };
}
