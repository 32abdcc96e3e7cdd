import { describe, expect, it } from "vitest";
import type { Model } from "@gateway/proto";
import type { Request } from "express";
import type { Logger } from "@gateway/observability";
import { SessionPins } from "./session-pins.js";
import { chatSession, messagesSession, openingOf, pinsPay, responsesSession, sessionKeyOf } from "./session-key.js";

const log = { debug: () => undefined, warn: () => undefined } as unknown as Logger;

function pins(maxEntries = 100) {
  let now = 1_000_000;
  const p = new SessionPins({ maxEntries, bucketMaxBytes: 1 << 20, replicas: 1, timeoutMs: 100, maxWritesInFlight: 4, log, now: () => now });
  return { p, advance: (ms: number) => (now += ms) };
}

describe("session pins on a replica", () => {
  it("a served turn pins its session for the cache's lifetime: new, then hit, then moved when another deployment served it", () => {
    const { p } = pins();
    expect(p.get("s1")).toBeUndefined();
    expect(p.served("s1", undefined, "a/m", 300_000)).toBe("new");
    expect(p.get("s1")).toBe("a/m");
    expect(p.served("s1", "a/m", "a/m", 300_000)).toBe("hit");
    expect(p.served("s1", "a/m", "b/m", 300_000)).toBe("moved");
    expect(p.get("s1")).toBe("b/m");
  });

  it("a pin lapses with the provider's cache: each turn renews it, none for longer than its lifetime", () => {
    const { p, advance } = pins();
    p.served("s1", undefined, "a/m", 300_000);
    advance(299_000);
    expect(p.get("s1")).toBe("a/m");
    p.served("s1", "a/m", "a/m", 300_000);
    advance(299_000);
    expect(p.get("s1")).toBe("a/m");
    advance(2_000);
    expect(p.get("s1")).toBeUndefined();
  });

  it("is bounded: at its size the least recently used pin goes", () => {
    const { p } = pins(3);
    for (const s of ["s1", "s2", "s3"]) p.served(s, undefined, "a/m", 300_000);
    p.served("s1", "a/m", "a/m", 300_000); // s1 used again: s2 is now the oldest
    p.served("s4", undefined, "a/m", 300_000);
    expect(p.size).toBe(3);
    expect(p.get("s2")).toBeUndefined();
    expect(p.get("s1")).toBe("a/m");
  });
});

const model = (o: Partial<Model>): Model =>
  ({ id: "m", input_price_minor_per_mtok: 1_000, cached_input_price_minor_per_mtok: 100, deployments: [{ provider: "a" }, { provider: "b" }], ...o }) as unknown as Model;
const req = (headers: Record<string, string> = {}) => ({ headers }) as unknown as Request;

describe("what identifies a session", () => {
  it("pins only where a cached read is cheaper and there is a deployment to choose", () => {
    expect(pinsPay(model({}))).toBe(true);
    expect(pinsPay(model({ cached_input_price_minor_per_mtok: 1_000 }))).toBe(false);
    expect(pinsPay(model({ cached_input_price_minor_per_mtok: undefined }))).toBe(false);
    expect(pinsPay(model({ deployments: [{ provider: "a" }] as Model["deployments"] }))).toBe(false);
  });

  it("the opening every later turn repeats: up to the first user turn", () => {
    const system = { role: "system", content: "be brief" };
    const first = { role: "user", content: "hi" };
    expect(openingOf([system, first])).toBe(openingOf([system, first, { role: "assistant", content: "hello" }, { role: "user", content: "next" }]));
    expect(openingOf([system])).toBeUndefined();
  });

  it("the client's own id first (prompt_cache_key, a session header), the opening otherwise; keys differ by organization and model", () => {
    const messages = [{ role: "user", content: "hi" }];
    expect(chatSession({ messages, prompt_cache_key: "abc" } as never, req())?.source).toBe("prompt_cache_key:abc");
    expect(chatSession({ messages } as never, req({ "x-claude-code-session-id": "s-1" }))?.source).toBe("x-claude-code-session-id:s-1");
    expect(chatSession({ messages } as never, req())?.source).toBe(openingOf(messages));
    expect(chatSession({ messages, prompt_cache_retention: "24h" } as never, req())?.longCache).toBe(true);
    expect(messagesSession({ system: [{ type: "text", text: "s", cache_control: { type: "ephemeral", ttl: "1h" } }], messages }, req())?.longCache).toBe(true);
    // A continuation names no opening: only its client's id says which session it is.
    expect(responsesSession({ input: "next", previous_response_id: "resp_1" }, req())).toBeUndefined();
    expect(responsesSession({ input: "first" }, req())?.source).toContain("first");
    expect(sessionKeyOf("org_1", "m", "x")).not.toBe(sessionKeyOf("org_2", "m", "x"));
    expect(sessionKeyOf("org_1", "m", "x")).not.toBe(sessionKeyOf("org_1", "n", "x"));
    expect(sessionKeyOf("org_1", "m", "x")).toMatch(/^s\.[0-9a-f]{40}$/);
  });
});
