import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import type { RefusalEventV1 } from "@gateway/events";
import { Counter, Registry } from "@gateway/observability";
import type { KeyContext } from "@gateway/proto";
import { RequestContext, type Authenticated } from "../http/request-context.js";
import { KeyBuckets, RefusalRecorder, refusalOf } from "./refusals.js";

function state(keyId = "key_a", model?: string): Authenticated {
  const rq = new RequestContext(1_000);
  rq.key = { key_id: keyId, org_id: "org_a" } as KeyContext;
  if (model !== undefined) rq.model = model;
  return rq as Authenticated;
}

function recorder(sink: (e: RefusalEventV1) => Promise<boolean>, limits = { perSecond: 10, burst: 2, maxKeys: 100 }) {
  let now = 1_000;
  const counted = new Counter({ name: "t_refusals", help: "t", labelNames: ["result"], registers: [new Registry()] });
  const r = new RefusalRecorder({ publishRefusal: sink }, limits, counted, () => now);
  const count = async (result: string) => (await counted.get()).values.find((v) => v.labels.result === result)?.value ?? 0;
  return { r, count, advance: (ms: number) => (now += ms) };
}

describe("which errors leave a refusal record", () => {
  it("a 4xx refusal does; a rate limit's 429, an input guardrail's denial (its own record) and the gateway's 5xx do not", () => {
    expect(refusalOf(new GatewayError("model_not_found", "no"))).toBeDefined();
    expect(refusalOf(new GatewayError("invalid_request", "bad"))).toBeDefined();
    expect(refusalOf(new GatewayError("insufficient_credits", "top up"))).toBeDefined();
    expect(refusalOf(new GatewayError("rate_limit_exceeded", "slow down"))).toBeUndefined();
    expect(refusalOf(new GatewayError("guardrail_denied", "denied"))).toBeUndefined();
    expect(refusalOf(new GatewayError("internal_error", "oops"))).toBeUndefined();
    expect(refusalOf(new Error("a bug"))).toBeUndefined();
  });
});

describe("the per-key bucket", () => {
  it("lets a burst through, then the rate; forgets the least recently refused key past its bound", () => {
    const b = new KeyBuckets(10, 3, 2);
    expect([b.take("k1", 0), b.take("k1", 0), b.take("k1", 0), b.take("k1", 0)]).toEqual([true, true, true, false]);
    // 10 a second: one more after 100 ms, not before.
    expect(b.take("k1", 50)).toBe(false);
    expect(b.take("k1", 150)).toBe(true);
    expect(b.take("k2", 150)).toBe(true);
    // A third key evicts k1 (least recently used): it comes back full.
    expect(b.take("k3", 150)).toBe(true);
    expect(b.size).toBe(2);
    expect(b.take("k1", 150)).toBe(true);
    expect(new KeyBuckets(0, 3, 2).take("k", 0)).toBe(false);
  });
});

describe("the recorder", () => {
  it("publishes within the key's rate, counts the rest as rate_limited and what NATS did not take as dropped", async () => {
    const sent: RefusalEventV1[] = [];
    let acks = true;
    const { r, count } = recorder(async (e) => {
      sent.push(e);
      return acks;
    });
    const err = new GatewayError("model_not_found", "Model 'x' not found.");
    expect(await r.record(state(), "chat", err, { model: "x", stream: true })).toBe(true);
    acks = false;
    expect(await r.record(state(), "chat", err, { model: "x" })).toBe(false);
    expect(r.record(state(), "chat", err, { model: "x" })).toBeUndefined();
    expect(sent[0]).toMatchObject({
      org_id: "org_a",
      key_id: "key_a",
      model: "x",
      route: "chat",
      status: 404,
      error_code: "model_not_found",
      stream: true,
      created_at_ms: 1_000,
      model_resolved: false,
    });
    expect([await count("published"), await count("dropped"), await count("rate_limited")]).toEqual([1, 1, 1]);
    // Another key has a bucket of its own.
    expect(r.record(state("key_b"), "chat", err, {})).toBeDefined();
    // A model admission had resolved (a refusal after it: the credit gate) is said to be one: the rollups name it.
    const resolved = state("key_c", "gw-chat-mini");
    resolved.modelResolved = true;
    await r.record(resolved, "chat", new GatewayError("insufficient_credits", "Top up."), { model: "gw-chat-mini" });
    expect(sent.at(-1)).toMatchObject({ model: "gw-chat-mini", model_resolved: true });
  });

  it('keeps what the caller sent storable: bounded, no NUL, no half of a character pair; "" when the body named no model', async () => {
    const sent: RefusalEventV1[] = [];
    const { r } = recorder(async (e) => {
      sent.push(e);
      return true;
    });
    const long = `${"m".repeat(255)}\u{1F600}tail`;
    await r.record(state(), "chat", new GatewayError("invalid_request", `bad \u0000 ${"x".repeat(400)}`), { model: long });
    await r.record(state("key_c"), "messages", new GatewayError("invalid_request", "no body"), "not an object");
    expect(sent[0]!.model).toHaveLength(256);
    expect(sent[0]!.model.endsWith("\uFFFD")).toBe(true);
    expect(sent[0]!.message).toHaveLength(256);
    expect(sent[0]!.message).not.toContain("\u0000");
    expect(sent[1]!.model).toBe("");
  });
});
