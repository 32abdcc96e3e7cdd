import type { UsageEventV1 } from "@gateway/events";
import type { ImagePrice, McpServer, Model, VideoPrice } from "@gateway/proto";
import { costMinor, providerPrices, tokenPrices, type PricedModel } from "./cost.js";
import { imageUnitPrice, videoPricePerSecond } from "./media.js";

/**
 * What one deployment charges the operator per token class, minor units per million tokens
 * (docs/billing.md, "Reconciliation"): its cost prices with the defaults applied (providerPrices).
 */
export interface ProviderTokenCosts {
  input: number;
  cached_input: number;
  cache_write: number;
  output: number;
  reasoning: number;
}

/**
 * A model's prices in a price sheet: its token prices, its images' and its video's, and what each of
 * its deployments charges the operator per token class, keyed `provider/upstream_model` (absent in
 * sheets of control-planes before it).
 */
export type SheetModel = PricedModel & { image_prices: ImagePrice[]; default_image_size: string; video_prices: VideoPrice[]; provider_costs?: Record<string, ProviderTokenCosts> };

/** A deployment's key in a sheet's provider_costs. */
export const sheetDeploymentKey = (provider: string, upstreamModel: string) => `${provider}/${upstreamModel}`;

/**
 * What one catalog version charges (docs/security.md, "Usage events"): every model's prices and
 * every MCP tool's, keyed by the id a usage event names (`model`; `server/tool` for a tool call).
 * The control-plane publishes one per version before any data-plane can price with it; the ledger
 * recomputes each event's cost from its counts with the sheet of the version the event names.
 */
export interface PriceSheet {
  version: number;
  models: Record<string, SheetModel>;
  tools: Record<string, number>;
}

const PRICE_FIELDS = [
  "input_price_minor_per_mtok",
  "output_price_minor_per_mtok",
  "cached_input_price_minor_per_mtok",
  "cache_write_price_minor_per_mtok",
  "reasoning_price_minor_per_mtok",
  "web_search_price_minor",
  "long_context_threshold_tokens",
  "long_context_input_price_minor_per_mtok",
  "long_context_output_price_minor_per_mtok",
  "audio_input_price_minor_per_mtok",
  "audio_output_price_minor_per_mtok",
] as const satisfies readonly (keyof PricedModel)[];

/** The price sheet of a catalog: its models' prices (absent ones stay absent: the defaults apply) and its tools'. */
export function priceSheet(version: number, models: readonly Model[], mcpServers: readonly McpServer[]): PriceSheet {
  const sheet: PriceSheet = { version, models: {}, tools: {} };
  for (const m of models) {
    const prices: Record<string, number> = {};
    // A threshold of 0 is none (the catalog's Model always carries one): left out like an unset price.
    for (const f of PRICE_FIELDS) if (m[f] !== undefined && !(f === "long_context_threshold_tokens" && m[f] === 0)) prices[f] = m[f];
    const costs: Record<string, ProviderTokenCosts> = {};
    for (const d of m.deployments ?? []) {
      const p = tokenPrices(providerPrices(m, d));
      costs[sheetDeploymentKey(d.provider, d.upstream_model)] = { input: p.input, cached_input: p.cachedInput, cache_write: p.cacheWrite, output: p.output, reasoning: p.reasoning };
    }
    sheet.models[m.id] = {
      ...(prices as unknown as PricedModel),
      image_prices: m.image_prices,
      default_image_size: m.default_image_size,
      video_prices: m.video?.prices ?? [],
      provider_costs: costs,
    };
  }
  for (const s of mcpServers) for (const t of s.tools) sheet.tools[`${s.name}/${t.name}`] = t.price_minor;
  return sheet;
}

const own = <T>(r: Record<string, T>, k: string): T | undefined => (Object.hasOwn(r, k) ? r[k] : undefined);
const TOKEN_ITEMS = new Set([
  "input_tokens",
  "cached_input_tokens",
  "cache_creation_input_tokens",
  "audio_input_tokens",
  "output_tokens",
  "reasoning_tokens",
  "audio_output_tokens",
  "web_search_requests",
]);

/**
 * What a usage event costs at `sheet`'s prices, recomputed from its counts alone (its tokens, the
 * quantities of its line items and their attributes: size and quality of images, resolution and
 * audio of video), never from the prices or the cost it states; or why it cannot be priced.
 */
export function recomputeCost(ev: UsageEventV1, sheet: PriceSheet): number | string {
  const items = ev.line_items;
  const quantity = (name: string) => items.reduce((n, i) => (i.item === name ? n + i.quantity : n), 0);
  if (ev.route === "mcp") {
    const price = own(sheet.tools, ev.model);
    if (price === undefined) return `catalog version ${sheet.version} offers no tool '${ev.model}'`;
    const other = items.find((i) => i.item !== "tool_call");
    return other ? `a tool call with a '${other.item}' line item` : quantity("tool_call") * price;
  }
  const model = own(sheet.models, ev.model);
  if (!model) return `catalog version ${sheet.version} has no model '${ev.model}'`;
  const media = items.find((i) => i.item === "images" || i.item === "video_seconds");
  if (media) {
    if (items.length !== 1) return `a ${media.item} line item beside ${items.length - 1} other(s)`;
    const a = media.attributes ?? {};
    const unit =
      media.item === "images"
        ? imageUnitPrice(model.image_prices, model.default_image_size, a.size === "default" ? undefined : a.size, a.quality)
        : videoPricePerSecond(model.video_prices, a.resolution ?? "", a.audio === "true");
    return unit === undefined ? `catalog version ${sheet.version} prices no such ${media.item} for '${ev.model}'` : media.quantity * unit;
  }
  const other = items.find((i) => !TOKEN_ITEMS.has(i.item));
  if (other) return `an unknown line item '${other.item}'`;
  const u = ev.usage;
  return costMinor(
    {
      input_tokens: u.input_tokens,
      output_tokens: u.output_tokens,
      cached_input_tokens: u.cached_input_tokens,
      cache_creation_input_tokens: u.cache_creation_input_tokens ?? 0,
      reasoning_tokens: u.reasoning_tokens ?? 0,
      // Counted only in the line items: the usage object has no field for them.
      audio_input_tokens: quantity("audio_input_tokens"),
      audio_output_tokens: quantity("audio_output_tokens"),
      web_search_requests: quantity("web_search_requests"),
    },
    model,
  );
}
