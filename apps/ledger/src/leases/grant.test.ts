import { describe, expect, it } from "vitest";
import { grantOf } from "./grant.js";

describe("what a lease is granted", () => {
  it("the need in full, and beyond it at most a quarter of what is available, never more than asked", () => {
    expect(grantOf({ amount_minor: 100, min_amount_minor: 37, demand_minor: 0 }, 1_000)).toBe(100);
    expect(grantOf({ amount_minor: 10_000, min_amount_minor: 37, demand_minor: 0 }, 1_000)).toBe(37 + 250);
  });

  it("the demand of the requests waiting on the lease in full when there is that much; what there is when not, refusing nobody", () => {
    expect(grantOf({ amount_minor: 1_000, min_amount_minor: 37, demand_minor: 900 }, 1_000)).toBe(937);
    expect(grantOf({ amount_minor: 1_000, min_amount_minor: 37, demand_minor: 963 }, 500)).toBe(500);
    // A demand larger than what was asked for is what was asked for.
    expect(grantOf({ amount_minor: 100, min_amount_minor: 37, demand_minor: 5_000 }, 1_000)).toBe(100);
  });
});
