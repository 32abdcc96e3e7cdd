import { describe, expect, it } from "vitest";
import { RateLimiter } from "./rate-limiter.js";

function pair() {
  let t = 60_000 * 1000; // start of a window
  const now = () => t;
  const a = new RateLimiter({ replicaId: "a", maxKeys: 100, now });
  const b = new RateLimiter({ replicaId: "b", maxKeys: 100, now });
  const gossip = () => {
    const ma = a.drainGossip();
    const mb = b.drainGossip();
    if (ma) b.absorb(ma);
    if (mb) a.absorb(mb);
  };
  return { a, b, gossip, advance: (ms: number) => (t += ms) };
}

const admitted = (rl: RateLimiter, key: string, rpm: number, tpm = 0) => {
  try {
    rl.admit(key, rpm, tpm);
    return true;
  } catch {
    return false;
  }
};

describe("RateLimiter", () => {
  it("says what it counted for a key: its own admissions, and the others' once their gossip arrived", () => {
    const { a, b, gossip } = pair();
    for (let i = 0; i < 3; i++) admitted(a, "k", 10);
    expect(a.counted("k")).toEqual({ local: 3, remote: 0 });
    expect(b.counted("k")).toEqual({ local: 0, remote: 0 });
    gossip();
    expect(b.counted("k")).toEqual({ local: 0, remote: 3 });
  });

  it("admits exactly the limit on one replica and answers with a retry hint", () => {
    const { a } = pair();
    const ok = Array.from({ length: 15 }, () => admitted(a, "k", 10)).filter(Boolean).length;
    expect(ok).toBe(10);
    expect(() => a.admit("k", 10, 0)).toThrow(expect.objectContaining({ code: "rate_limit_exceeded" }));
  });

  it("holds one limit across replicas that gossip", () => {
    const { a, b, gossip, advance } = pair();
    let ok = 0;
    for (let i = 0; i < 30; i++) {
      if (admitted(i % 2 ? a : b, "k", 10)) ok++;
      gossip();
      advance(100);
    }
    expect(ok).toBe(10);
  });

  it("slides: the previous minute's count fades out", () => {
    const { a, advance } = pair();
    for (let i = 0; i < 10; i++) a.admit("k", 10, 0);
    advance(60_000 + 30_000); // half-way into the next window: 10 × 0.5 = 5 still count
    const ok = Array.from({ length: 10 }, () => admitted(a, "k", 10)).filter(Boolean).length;
    expect(ok).toBe(5);
  });

  it("limits tokens per minute once the tokens are known", () => {
    const { a } = pair();
    a.admit("k", 0, 100);
    a.addTokens("k", 120);
    expect(admitted(a, "k", 0, 100)).toBe(false);
    expect(admitted(a, "other", 0, 100)).toBe(true);
  });

  it("forgets keys two windows after their last use, local and gossiped (not only at maxKeys)", () => {
    const { a, b, gossip, advance } = pair();
    for (let i = 0; i < 20; i++) a.admit(`k${i}`, 100, 0);
    gossip();
    expect(a.size).toBe(20);
    expect(b.size).toBe(20);
    advance(60_000);
    a.admit("k0", 100, 0);
    gossip();
    // The previous window still weighs in the estimate: nothing dropped yet.
    expect(a.size).toBe(20);
    expect(b.size).toBe(20);
    advance(60_000);
    gossip();
    expect(a.size).toBe(1);
    expect(b.size).toBe(1);
    advance(120_000);
    gossip();
    expect(a.size).toBe(0);
    expect(b.size).toBe(0);
  });
});
