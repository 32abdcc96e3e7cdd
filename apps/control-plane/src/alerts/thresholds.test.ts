import { describe, expect, it } from "vitest";
import { balanceAmounts, budgetPcts } from "./thresholds.js";

describe("alert thresholds", () => {
  it("takes budget percentages from 1 to 1000, each once, in order, at most 10", () => {
    expect(budgetPcts([100, 50, 80, 50])).toEqual([50, 80, 100]);
    expect(budgetPcts([])).toEqual([]);
    expect(budgetPcts([1, 1000])).toEqual([1, 1000]);
    for (const bad of [0, 1001, 50.5, -5]) expect(() => budgetPcts([bad])).toThrow(/budget_pcts must be whole percentages from 1 to 1000/);
    expect(() => budgetPcts([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11])).toThrow(/at most 10 percentages, got 11/);
  });

  it("takes balance thresholds as positive minor units, highest first, at most 10", () => {
    expect(balanceAmounts([1_000_000, 5_000_000, 1_000_000])).toEqual([5_000_000, 1_000_000]);
    for (const bad of [0, -1, 1.5, 2 ** 60]) expect(() => balanceAmounts([bad])).toThrow(/balance_minor must be positive whole amounts/);
    expect(() => balanceAmounts(Array.from({ length: 11 }, (_, i) => i + 1))).toThrow(/at most 10 amounts/);
  });
});
