import { describe, expect, it } from "vitest";
import { costMinor } from "./cost.js";

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
