import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./backoff.js";

describe("webhook retry backoff", () => {
  it("doubles from 5 s to at most 1 h", () => {
    const longest = (n: number) => retryDelayMs(n, 5_000, 3_600_000, () => 0);
    expect([1, 2, 3, 4, 5].map(longest)).toEqual([5_000, 10_000, 20_000, 40_000, 80_000]);
    expect(longest(10)).toBe(2_560_000);
    expect(longest(11)).toBe(3_600_000);
    expect(longest(500)).toBe(3_600_000);
  });

  it("shortens each pause at random by up to half (jitter), never more", () => {
    expect(retryDelayMs(3, 5_000, 3_600_000, () => 1)).toBe(10_000);
    expect(retryDelayMs(3, 5_000, 3_600_000, () => 0.5)).toBe(15_000);
    for (let i = 0; i < 200; i++) {
      const d = retryDelayMs(4, 5_000, 3_600_000);
      expect(d).toBeGreaterThanOrEqual(20_000);
      expect(d).toBeLessThanOrEqual(40_000);
    }
  });

  it("gives up well within a day at the defaults: about 35 attempts", () => {
    let t = 0;
    let attempts = 0;
    while (t < 86_400_000) t += retryDelayMs(++attempts, 5_000, 3_600_000, () => 0);
    expect(attempts).toBeGreaterThan(30);
    expect(attempts).toBeLessThan(40);
  });
});
