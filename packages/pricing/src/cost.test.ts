import { describe, expect, it } from "vitest";
import { costMinor, lineItemsCostMinor, maxTokenCostMinor, providerPrices, tokenLineItems, tokenPrices, usageLineItems } from "./cost.js";
import { priceSheet } from "./sheet.js";

describe("costMinor", () => {
  const model = { input_price_minor_per_mtok: 150_000, output_price_minor_per_mtok: 600_000 };
  it("prices per million tokens and rounds the request total up", () => {
    // 1000 × 150000 + 500 × 600000 = 450,000,000 micro → 450 minor exactly
    expect(costMinor({ input_tokens: 1000, output_tokens: 500 }, model)).toBe(450);
    // 7 × 150000 + 3 × 600000 = 2,850,000 → 2.85 → 3
    expect(costMinor({ input_tokens: 7, output_tokens: 3 }, model)).toBe(3);
    expect(costMinor({ input_tokens: 0, output_tokens: 0 }, model)).toBe(0);
  });
  it("stays exact for large requests", () => {
    expect(costMinor({ input_tokens: 2_000_000, output_tokens: 1_000_000 }, model)).toBe(900_000);
  });
});

describe("cache and reasoning prices", () => {
  const model = {
    input_price_minor_per_mtok: 3_000_000,
    output_price_minor_per_mtok: 15_000_000,
    cached_input_price_minor_per_mtok: 300_000,
    cache_write_price_minor_per_mtok: 3_750_000,
    reasoning_price_minor_per_mtok: 20_000_000,
  };
  const usage = { input_tokens: 1_000, output_tokens: 500, cached_input_tokens: 600, cache_creation_input_tokens: 300, reasoning_tokens: 200 };

  it("bills every token once, each part at its own price, rounded up once", () => {
    const items = tokenLineItems(usage, model);
    expect(items).toEqual([
      { item: "input_tokens", quantity: 100, unit_price_minor: 3_000_000, per: "1M tokens" },
      { item: "cached_input_tokens", quantity: 600, unit_price_minor: 300_000, per: "1M tokens" },
      { item: "cache_creation_input_tokens", quantity: 300, unit_price_minor: 3_750_000, per: "1M tokens" },
      { item: "output_tokens", quantity: 300, unit_price_minor: 15_000_000, per: "1M tokens" },
      { item: "reasoning_tokens", quantity: 200, unit_price_minor: 20_000_000, per: "1M tokens" },
    ]);
    // Quantities add up to the totals: nothing billed twice, nothing left out.
    expect(items.filter((i) => i.item.includes("input")).reduce((s, i) => s + i.quantity, 0)).toBe(1_000);
    expect(items.filter((i) => !i.item.includes("input")).reduce((s, i) => s + i.quantity, 0)).toBe(500);
    // 100 × 3 + 600 × 0.3 + 300 × 3.75 + 300 × 15 + 200 × 20 = 300 + 180 + 1125 + 4500 + 4000 = 10,105
    expect(costMinor(usage, model)).toBe(10_105);
    expect(lineItemsCostMinor(items)).toBe(10_105);
    // One cached token alone: 0.3 → rounded up to 1.
    expect(costMinor({ input_tokens: 1, output_tokens: 0, cached_input_tokens: 1 }, model)).toBe(1);
  });

  it("prices each part separately: a cache read, a cache write, a reasoning token", () => {
    const one = (u: Partial<typeof usage>) => costMinor({ input_tokens: 0, output_tokens: 0, ...u }, model);
    expect(one({ input_tokens: 1_000_000, cached_input_tokens: 1_000_000 })).toBe(300_000);
    expect(one({ input_tokens: 1_000_000, cache_creation_input_tokens: 1_000_000 })).toBe(3_750_000);
    expect(one({ output_tokens: 1_000_000, reasoning_tokens: 1_000_000 })).toBe(20_000_000);
    expect(one({ input_tokens: 1_000_000 })).toBe(3_000_000);
    expect(one({ output_tokens: 1_000_000 })).toBe(15_000_000);
  });

  it("defaults to today's prices when the catalog sets none: cache reads and writes at the input price, reasoning at the output price", () => {
    const plain = { input_price_minor_per_mtok: 150_000, output_price_minor_per_mtok: 600_000 };
    expect(tokenPrices(plain)).toEqual({ input: 150_000, cachedInput: 150_000, cacheWrite: 150_000, output: 600_000, reasoning: 600_000, audioInput: 150_000, audioOutput: 600_000 });
    // 1000 × 0.15 + 500 × 0.6 = 150 + 300: every part at the plain input and output prices.
    expect(costMinor(usage, plain)).toBe(450);
    // A price set to 0 is a price (free cache reads), not "unset".
    expect(tokenPrices({ ...plain, cached_input_price_minor_per_mtok: 0 }).cachedInput).toBe(0);
  });

  it("caps parts a provider over-reports at what is left of their total", () => {
    const items = tokenLineItems({ input_tokens: 10, output_tokens: 5, cached_input_tokens: 8, cache_creation_input_tokens: 8, reasoning_tokens: 9 }, model);
    expect(items.map((i) => [i.item, i.quantity])).toEqual([
      ["input_tokens", 0],
      ["cached_input_tokens", 8],
      ["cache_creation_input_tokens", 2],
      ["output_tokens", 0],
      ["reasoning_tokens", 5],
    ]);
  });

  it("holds enough for the worst split: every prompt token at the dearest prompt price, every completion token at the dearest completion price", () => {
    const bound = maxTokenCostMinor(1_000, 500, model);
    // 1000 × 3.75 (cache write) + 500 × 20 (reasoning) = 13,750
    expect(bound).toBe(13_750);
    // Any split of at most 1000 prompt and 500 completion tokens costs no more than the hold.
    for (const [c, w, r] of [
      [0, 0, 0],
      [0, 1_000, 500],
      [1_000, 0, 0],
      [300, 700, 250],
      [0, 1_000, 0],
      [0, 0, 500],
    ] as const) {
      expect(costMinor({ input_tokens: 1_000, output_tokens: 500, cached_input_tokens: c, cache_creation_input_tokens: w, reasoning_tokens: r }, model)).toBeLessThanOrEqual(bound);
    }
    expect(costMinor({ input_tokens: 1_000, output_tokens: 500, cache_creation_input_tokens: 1_000, reasoning_tokens: 500 }, model)).toBe(bound);
    // Without the new prices the bound is what it was.
    const plain = { input_price_minor_per_mtok: 150_000, output_price_minor_per_mtok: 600_000 };
    // 7 × 0.15 + 3 × 0.6 = 2.85 → 3.
    expect(maxTokenCostMinor(7, 3, plain)).toBe(3);
  });
});

describe("web searches", () => {
  const model = { input_price_minor_per_mtok: 800_000, output_price_minor_per_mtok: 4_000_000, web_search_price_minor: 10_000 };

  it("are a line item per search at the model's price, added in whole minor units to the rounded token cost", () => {
    const usage = { input_tokens: 1_001, output_tokens: 3, web_search_requests: 2 };
    const items = usageLineItems(usage, model);
    expect(items.at(-1)).toEqual({ item: "web_search_requests", quantity: 2, unit_price_minor: 10_000, per: "search" });
    // Tokens: (1,001 × 0.8 + 3 × 4) = 812.8 → 813, then 2 × 10,000.
    expect(costMinor(usage, model)).toBe(813 + 20_000);
    expect(lineItemsCostMinor(items)).toBe(813 + 20_000);
    expect(usageLineItems({ input_tokens: 10, output_tokens: 1 }, model).some((i) => i.item === "web_search_requests")).toBe(false);
  });
});

describe("long-context prices", () => {
  // Like Gemini 2.5 Pro: above 200k prompt tokens input costs 2×, output 1.5×; cache reads a quarter of the input.
  const model = {
    input_price_minor_per_mtok: 1_250_000,
    output_price_minor_per_mtok: 10_000_000,
    cached_input_price_minor_per_mtok: 312_500,
    long_context_threshold_tokens: 200_000,
    long_context_input_price_minor_per_mtok: 2_500_000,
    long_context_output_price_minor_per_mtok: 15_000_000,
  };
  it("apply to every token of a request whose prompt is above the threshold, and not at it", () => {
    // At the threshold: 200,000 × 1.25 + 1,000 × 10 = 250,000 + 10,000.
    expect(costMinor({ input_tokens: 200_000, output_tokens: 1_000 }, model)).toBe(260_000);
    // One token more: 200,001 × 2.5 + 1,000 × 15 = 500,002.5 + 15,000 → 515,003.
    expect(costMinor({ input_tokens: 200_001, output_tokens: 1_000 }, model)).toBe(515_003);
    // Cache reads scale with the input: 100,001 cached at 0.625, 100,000 more at 2.5.
    expect(usageLineItems({ input_tokens: 200_001, output_tokens: 0, cached_input_tokens: 100_001 }, model)).toEqual([
      { item: "input_tokens", quantity: 100_000, unit_price_minor: 2_500_000, per: "1M tokens" },
      { item: "cached_input_tokens", quantity: 100_001, unit_price_minor: 625_000, per: "1M tokens" },
      { item: "output_tokens", quantity: 0, unit_price_minor: 15_000_000, per: "1M tokens" },
    ]);
  });
  it("bound a hold whose prompt bound is above the threshold, and the provider's cost in the same ratio", () => {
    expect(maxTokenCostMinor(300_000, 8_000, model)).toBe(300_000 * 2.5 + 8_000 * 15);
    expect(maxTokenCostMinor(100_000, 8_000, model)).toBe(100_000 * 1.25 + 8_000 * 10);
    // The deployment costs the operator 80% of the normal prices: its long-context prices are 80% too.
    const provider = providerPrices(model, { cost_input_price_minor_per_mtok: 1_000_000, cost_output_price_minor_per_mtok: 8_000_000 });
    expect(costMinor({ input_tokens: 300_000, output_tokens: 1_000 }, provider)).toBe(300_000 * 2 + 1_000 * 12);
  });
});

describe("audio prices", () => {
  // Like gpt-4o-mini-audio: text 150,000 / 600,000, audio 10,000,000 / 20,000,000 per million.
  const model = { input_price_minor_per_mtok: 150_000, output_price_minor_per_mtok: 600_000, audio_input_price_minor_per_mtok: 10_000_000, audio_output_price_minor_per_mtok: 20_000_000 };
  it("bill the audio part of the prompt and of the completion at the audio prices, the rest as text", () => {
    expect(usageLineItems({ input_tokens: 1_100, output_tokens: 300, audio_input_tokens: 1_000, audio_output_tokens: 200 }, model)).toEqual([
      { item: "input_tokens", quantity: 100, unit_price_minor: 150_000, per: "1M tokens" },
      { item: "audio_input_tokens", quantity: 1_000, unit_price_minor: 10_000_000, per: "1M tokens" },
      { item: "output_tokens", quantity: 100, unit_price_minor: 600_000, per: "1M tokens" },
      { item: "audio_output_tokens", quantity: 200, unit_price_minor: 20_000_000, per: "1M tokens" },
    ]);
    // 100 × 0.15 + 1,000 × 10 + 100 × 0.6 + 200 × 20 = 15 + 10,000 + 60 + 4,000 = 14,075
    expect(costMinor({ input_tokens: 1_100, output_tokens: 300, audio_input_tokens: 1_000, audio_output_tokens: 200 }, model)).toBe(14_075);
  });
  it("hold at the audio prices only a request that sends or asks for audio", () => {
    expect(maxTokenCostMinor(1_000, 100, model)).toBe(150 + 60);
    expect(maxTokenCostMinor(1_000, 100, model, { input: true, output: false })).toBe(10_000 + 60);
    expect(maxTokenCostMinor(1_000, 100, model, { input: true, output: true })).toBe(10_000 + 2_000);
  });
});

describe('cost prices per token class (docs/billing.md, "Reconciliation")', () => {
  // Like Claude Sonnet sold at 3 / 15 per million, cache reads 0.3, writes 3.75, bought at 2 / 10.
  const model = { input_price_minor_per_mtok: 3_000_000, cached_input_price_minor_per_mtok: 300_000, cache_write_price_minor_per_mtok: 3_750_000, output_price_minor_per_mtok: 15_000_000 };

  it("take a deployment's own cached-input, cache-write and reasoning cost prices over the scaled ones", () => {
    const scaled = tokenPrices(providerPrices(model, { cost_input_price_minor_per_mtok: 2_000_000, cost_output_price_minor_per_mtok: 10_000_000 }));
    // Without them, each class is the model's scaled as the input (output) price: 300,000 × 2/3, 3,750,000 × 2/3.
    expect(scaled).toMatchObject({ input: 2_000_000, cachedInput: 200_000, cacheWrite: 2_500_000, output: 10_000_000, reasoning: 10_000_000 });
    const own = tokenPrices(
      providerPrices(model, {
        cost_input_price_minor_per_mtok: 2_000_000,
        cost_output_price_minor_per_mtok: 10_000_000,
        cost_cached_input_price_minor_per_mtok: 150_000,
        cost_cache_write_price_minor_per_mtok: 2_400_000,
        cost_reasoning_price_minor_per_mtok: 9_000_000,
      }),
    );
    expect(own).toMatchObject({ input: 2_000_000, cachedInput: 150_000, cacheWrite: 2_400_000, output: 10_000_000, reasoning: 9_000_000 });
    // A class price alone: the others stay the model's.
    expect(tokenPrices(providerPrices(model, { cost_cached_input_price_minor_per_mtok: 100_000 }))).toMatchObject({ input: 3_000_000, cachedInput: 100_000, output: 15_000_000 });
  });

  it("are in the price sheet per deployment, with the defaults applied", () => {
    const sheet = priceSheet(
      7,
      [
        {
          id: "gw-claude",
          ...model,
          image_prices: [],
          default_image_size: "",
          deployments: [
            { provider: "anthropic", upstream_model: "claude-sonnet", priority: 0, weight: 1, cost_input_price_minor_per_mtok: 2_000_000, cost_cached_input_price_minor_per_mtok: 150_000 },
            { provider: "backup", upstream_model: "claude-sonnet", priority: 1, weight: 1 },
          ],
        } as unknown as Parameters<typeof priceSheet>[1][number],
      ],
      [],
    );
    expect(sheet.models["gw-claude"]!.provider_costs).toEqual({
      "anthropic/claude-sonnet": { input: 2_000_000, cached_input: 150_000, cache_write: 2_500_000, output: 15_000_000, reasoning: 15_000_000 },
      "backup/claude-sonnet": { input: 3_000_000, cached_input: 300_000, cache_write: 3_750_000, output: 15_000_000, reasoning: 15_000_000 },
    });
  });
});
