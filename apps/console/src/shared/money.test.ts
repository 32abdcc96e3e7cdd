import { describe, expect, it } from "vitest";
import { amountExpected, creditsText, formatAmount, formatPrice, parseCredits } from "./money.js";

const credits = { decimals: 2, unit: "credits" };

describe("the console's money format", () => {
  it("shows an amount with the operator's decimals, rounded half away from zero, grouped by commas", () => {
    expect(formatAmount(7_000_000, credits)).toBe("7.00 credits");
    expect(formatAmount(1_234_567_890_000, credits)).toBe("1,234,567.89 credits");
    expect(formatAmount(4_999, credits)).toBe("0.00 credits");
    expect(formatAmount(5_000, credits)).toBe("0.01 credits");
    expect(formatAmount(-2_505_000, credits)).toBe("-2.51 credits");
    expect(formatAmount(-1, credits)).toBe("0.00 credits");
    expect(formatAmount(2_500_000, { decimals: 0, unit: "USD" })).toBe("3 USD");
    expect(formatAmount(2_500_001, { decimals: 6, unit: "cr" })).toBe("2.500001 cr");
  });

  it("shows a price exactly: the format's decimals, more when the price needs them (never rounded to 0)", () => {
    expect(formatPrice(150_000, credits)).toBe("0.15 credits");
    expect(formatPrice(150, credits)).toBe("0.00015 credits");
    expect(formatPrice(1, credits)).toBe("0.000001 credits");
    expect(formatPrice(40_000_000, { decimals: 0, unit: "USD" })).toBe("40 USD");
    expect(formatPrice(0, credits)).toBe("0.00 credits");
  });

  it("reads a person's amount of credits into minor units; anything else is refused", () => {
    expect(parseCredits("12.5")).toBe(12_500_000);
    expect(parseCredits(" 1,000.25 ")).toBe(1_000_250_000);
    expect(parseCredits("0")).toBe(0);
    expect(parseCredits(".5")).toBe(500_000);
    expect(parseCredits("3.")).toBe(3_000_000);
    expect(parseCredits("0.000001")).toBe(1);
    for (const bad of ["", ".", "-1", "1.0000001", "1e6", "12,34", "abc", "1,000,00", "99999999999999"]) expect(parseCredits(bad), bad).toBeNull();
  });

  it("says what an amount field expects in the operator's unit, never in minor units", () => {
    expect(amountExpected("Budget per month", credits)).toBe("Budget per month must be an amount in credits such as 12.50, with at most 6 decimals");
    expect(amountExpected("Top-up", { decimals: 0, unit: "USD" })).toBe("Top-up must be an amount in USD such as 12.5, with at most 6 decimals");
    expect(creditsText(123_456_789, 3)).toBe("123.457");
  });
});
