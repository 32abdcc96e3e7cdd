import { describe, expect, it } from "vitest";
import { addCounts, quantileMs } from "./latency.js";

const BOUNDS = [10, 15, 20, 30, 50, 70, 100];

describe("a p95 from the rollups' latency histograms", () => {
  it("lies in the bucket of the record of that rank, interpolated on a log scale", () => {
    // 100 records: 94 under 10 ms, 6 in [50, 70): the 95th is the first of the six.
    const counts = [94, 0, 0, 0, 0, 6, 0, 0];
    const p95 = quantileMs(counts, BOUNDS)!;
    expect(p95).toBeGreaterThanOrEqual(50);
    expect(p95).toBeLessThan(70);
    // Every record in one bucket: the p95 is near its top.
    expect(quantileMs([0, 0, 0, 0, 10, 0, 0, 0], BOUNDS)).toBe(Math.round(30 * (50 / 30) ** 0.95));
  });

  it("says the last bound for the open bucket, and nothing without records", () => {
    expect(quantileMs([0, 0, 0, 0, 0, 0, 0, 3], BOUNDS)).toBe(100);
    expect(quantileMs([0, 0, 0, 0, 0, 0, 0, 0], BOUNDS)).toBeNull();
    expect(quantileMs([1, 0, 0, 0, 0, 0, 0, 0], BOUNDS)).toBe(10);
  });

  it("reads over several points: their histograms add up", () => {
    const hour1 = [0, 0, 0, 10, 0, 0, 0, 0];
    const hour2 = [0, 0, 0, 0, 0, 0, 10, 0];
    const both = addCounts(addCounts([], hour1), hour2);
    expect(both).toEqual([0, 0, 0, 10, 0, 0, 10, 0]);
    expect(quantileMs(both, BOUNDS)).toBeGreaterThanOrEqual(70);
  });
});
