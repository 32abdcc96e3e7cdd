import { describe, expect, it } from "vitest";
import { describeChanges, withPrices, type ModelDoc } from "./catalog-prices.js";

const money = { decimals: 2, unit: "credits" };
const chat: ModelDoc = { id: "gw-chat", routes: ["chat"], input_price_minor_per_mtok: 150_000, output_price_minor_per_mtok: 600_000, cached_input_price_minor_per_mtok: 75_000, deployments: [] };
const image: ModelDoc = {
  id: "gw-image",
  routes: ["images"],
  input_price_minor_per_mtok: 0,
  output_price_minor_per_mtok: 0,
  image_prices: [
    { size: "1024x1024", quality: "hd", price_minor: 80_000 },
    { size: "*", quality: "*", price_minor: 40_000 },
  ],
};
const form = (prices: Record<string, string>, extra: Partial<Parameters<typeof withPrices>[1]> = {}) => ({ prices, long_context_threshold_tokens: "", image_prices: [], video_prices: [], ...extra });

describe("a model's prices from the operator's form", () => {
  it("reads each field in credits; a field not sent keeps its price, an empty optional one is unset; the document's other fields stay", () => {
    const next = withPrices(chat, form({ input_price_minor_per_mtok: "0.2", cached_input_price_minor_per_mtok: "" }), money);
    expect(next).toMatchObject({ input_price_minor_per_mtok: 200_000, cached_input_price_minor_per_mtok: null, output_price_minor_per_mtok: 600_000, deployments: [] });
    expect(withPrices(image, form({}, { image_prices: ["0.085", "0.04"] }), money).image_prices).toEqual([
      { size: "1024x1024", quality: "hd", price_minor: 85_000 },
      { size: "*", quality: "*", price_minor: 40_000 },
    ]);
  });

  it("refuses a field that is not an amount, or a required one left empty, naming it as the form does", () => {
    expect(() => withPrices(chat, form({ output_price_minor_per_mtok: "0,6" }), money)).toThrow("Output price per 1M tokens must be an amount in credits such as 12.50, with at most 6 decimals.");
    expect(() => withPrices(chat, form({ input_price_minor_per_mtok: "" }), money)).toThrow("Input price per 1M tokens is required.");
    expect(() => withPrices(image, form({}, { image_prices: ["x", "0.04"] }), money)).toThrow("The price of an image (1024x1024, hd) must be an amount in credits");
    expect(() => withPrices(chat, form({}, { long_context_threshold_tokens: "lots" }), money)).toThrow("The long-context threshold must be a whole number of at least 0 (0: none).");
  });

  it("shows a change's fields as people read them, prices in the operator's format", () => {
    const fields = [
      { field: "input_price_minor_per_mtok", before: 150_000, after: 200_000 },
      { field: "web_search_price_minor", before: null, after: 10_000 },
      { field: "image_prices", before: image.image_prices, after: [{ size: "*", quality: "*", price_minor: 45_000 }] },
    ];
    expect(describeChanges([{ kind: "model", id: "m", change: "changed", fields_json: JSON.stringify(fields) }], { decimals: 3, unit: "cr" })[0]!.fields).toEqual([
      { field: "input_price_minor_per_mtok", label: "Input price per 1M tokens", before: "0.150 cr", after: "0.200 cr" },
      { field: "web_search_price_minor", label: "Web search price per search", before: "unset (web search refused)", after: "0.010 cr" },
      { field: "image_prices", label: "Image prices", before: "1024x1024, hd: 0.080 cr; any size, any quality: 0.040 cr", after: "any size, any quality: 0.045 cr" },
    ]);
  });
});
