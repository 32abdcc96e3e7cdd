import { describe, expect, it } from "vitest";
import { CircuitBreaker } from "./circuit-breaker.js";

describe("CircuitBreaker", () => {
  it("opens after consecutive failures, half-opens after the cooldown, closes on success", () => {
    let t = 0;
    const cb = new CircuitBreaker(3, 1_000, () => t);
    cb.failure("a");
    cb.failure("a");
    expect(cb.isOpen("a")).toBe(false);
    cb.failure("a");
    expect(cb.isOpen("a")).toBe(true);
    t = 1_001;
    expect(cb.isOpen("a")).toBe(false);
    cb.failure("a"); // the half-open trial failed: open again at once
    expect(cb.isOpen("a")).toBe(true);
    t = 2_500;
    cb.success("a");
    cb.failure("a");
    expect(cb.isOpen("a")).toBe(false);
  });

  it("counts the deployments cooling down now, for the open-breakers gauge", () => {
    let t = 0;
    const cb = new CircuitBreaker(1, 1_000, () => t);
    cb.failure("a");
    cb.failure("b");
    expect(cb.openCount).toBe(2);
    cb.success("a");
    expect(cb.openCount).toBe(1);
    t = 1_001;
    expect(cb.openCount).toBe(0);
  });
});
