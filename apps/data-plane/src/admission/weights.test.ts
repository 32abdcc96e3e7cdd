import { describe, expect, it } from "vitest";
import { orderDeployments } from "./weights.js";

const d = (provider: string, priority: number, weight: number) => ({ provider, upstream_model: provider, priority, weight });

describe("orderDeployments", () => {
  it("orders by priority and splits equal priorities by weight", () => {
    const deps = [d("backup", 1, 1), d("a", 0, 3), d("b", 0, 1)];
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const firsts = new Map<string, number>();
    for (let i = 0; i < 4000; i++) {
      const order = orderDeployments(deps, random);
      expect(order.at(-1)!.provider).toBe("backup");
      firsts.set(order[0]!.provider, (firsts.get(order[0]!.provider) ?? 0) + 1);
    }
    const share = firsts.get("a")! / 4000;
    expect(share).toBeGreaterThan(0.7);
    expect(share).toBeLessThan(0.8);
  });

  it("orders distinct priorities lowest first, whatever order the catalog listed them in", () => {
    expect(orderDeployments([d("c", 2, 1), d("a", 0, 1), d("b", 1, 5)]).map((x) => x.provider)).toEqual(["a", "b", "c"]);
    expect(orderDeployments([d("a", 0, 1), d("b", 1, 5), d("c", 2, 1)]).map((x) => x.provider)).toEqual(["a", "b", "c"]);
  });
});
