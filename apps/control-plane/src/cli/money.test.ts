import { describe, expect, it } from "vitest";
import { inCurrency, parseMicros } from "./money.js";

describe("amounts in a currency", () => {
  it("parses a price per credit into millionths, exactly", () => {
    expect(parseMicros("1", "--p")).toBe(1_000_000);
    expect(parseMicros("0.25", "--p")).toBe(250_000);
    expect(parseMicros("1.000001", "--p")).toBe(1_000_001);
    expect(() => parseMicros("1.0000001", "--p")).toThrow(/six decimals/);
    expect(() => parseMicros("-1", "--p")).toThrow();
  });

  it("converts minor credit units at the price, to the currency's digits, half away from zero", () => {
    // 2,500,000 minor units = 2.5 credits at 1.20 EUR = 3.00 EUR.
    expect(inCurrency(2_500_000, 1_200_000, "EUR")).toBe("3.00");
    // 5,000 minor units at 1.00: 0.005 EUR rounds to 0.01; 4,999 to 0.00.
    expect(inCurrency(5_000, 1_000_000, "EUR")).toBe("0.01");
    expect(inCurrency(4_999, 1_000_000, "EUR")).toBe("0.00");
    expect(inCurrency(-5_000, 1_000_000, "EUR")).toBe("-0.01");
    // Yen has no minor unit; the Kuwaiti dinar three.
    expect(inCurrency(1_500_000, 150_000_000, "JPY")).toBe("225");
    expect(inCurrency(1_000_000, 1_234_500, "KWD")).toBe("1.235");
    expect(inCurrency(1_000_000, 0, "EUR")).toBe("");
  });
});
