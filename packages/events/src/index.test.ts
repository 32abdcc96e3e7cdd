import { describe, expect, it } from "vitest";
import {
  MAX_RECORDED_ATTEMPTS,
  MAX_USAGE_EVENT_BYTES,
  REFUSAL_MESSAGE_MAX,
  REFUSAL_MODEL_MAX,
  RefusalEventV1,
  USAGE_BASES,
  USAGE_BATCH_MAX_BYTES,
  UsageEventV1,
  UsageTokens,
  decodeEvent,
  encodeEvent,
  usageBasis,
} from "./index.js";

const event = {
  version: 1,
  request_id: "req_0190f3a5b2c1d4e5f6a7b8c9d0e1f2a3",
  org_id: "org_1",
  key_id: "key_1",
  model: "gw-chat-mini",
  route: "chat",
  provider: "fake",
  upstream_model: "fake-chat",
  lease_id: "lease_1",
  usage: { input_tokens: 3, output_tokens: 2, cached_input_tokens: 0, estimated: false },
  input_price_minor_per_mtok: 1,
  output_price_minor_per_mtok: 1,
  cost_minor: 1,
  stream: false,
  status: 200,
  created_at_ms: 1,
  duration_ms: 1,
};
const traceparent = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

describe("usage.v1 traceparent", () => {
  it("is carried when present, and a ledger built before the field reads the event without it", () => {
    expect(decodeEvent(UsageEventV1, encodeEvent({ ...event, traceparent }))?.traceparent).toBe(traceparent);
    const before = UsageEventV1.omit({ traceparent: true });
    const old = decodeEvent(before, encodeEvent({ ...event, traceparent }));
    expect(old?.request_id).toBe(event.request_id);
    expect(old).not.toHaveProperty("traceparent");
  });

  it("an invalid value is dropped, never the event", () => {
    const ev = decodeEvent(UsageEventV1, encodeEvent({ ...event, traceparent: "x".repeat(500) }));
    expect(ev?.request_id).toBe(event.request_id);
    expect(ev?.traceparent).toBeUndefined();
    expect(decodeEvent(UsageEventV1, encodeEvent({ ...event, traceparent: 42 }))?.traceparent).toBeUndefined();
  });
});

describe("usage.v1 basis", () => {
  it("is carried when present; an event without it parses (data-planes before it) and reads as estimated or reported", () => {
    for (const basis of USAGE_BASES) {
      const estimated = basis === "estimated" || basis === "bounded";
      const ev = decodeEvent(UsageEventV1, encodeEvent({ ...event, usage: { ...event.usage, estimated, basis } }));
      expect(ev?.usage).toMatchObject({ basis, estimated });
    }
    const without = decodeEvent(UsageEventV1, encodeEvent(event));
    expect(without?.request_id).toBe(event.request_id);
    expect(without?.usage.basis).toBeUndefined();
    expect(usageBasis(without?.usage.basis, false)).toBe("reported");
    expect(usageBasis(undefined, true)).toBe("estimated");
    expect(usageBasis(null, true)).toBe("estimated");
    expect(usageBasis("", false)).toBe("reported");
    expect(usageBasis("drained", false)).toBe("drained");
  });

  it("a ledger built before the field reads the event and drops it (the usage object is not strict)", () => {
    const before = UsageEventV1.extend({ usage: UsageTokens.omit({ basis: true }) });
    const old = decodeEvent(before, encodeEvent({ ...event, usage: { ...event.usage, estimated: true, basis: "bounded" } }));
    expect(old?.request_id).toBe(event.request_id);
    expect(old?.usage).toEqual({ input_tokens: 3, output_tokens: 2, cached_input_tokens: 0, estimated: true });
  });

  it("a value this release does not know is dropped, never the event", () => {
    const ev = decodeEvent(UsageEventV1, encodeEvent({ ...event, usage: { ...event.usage, basis: "guessed" } }));
    expect(ev?.request_id).toBe(event.request_id);
    expect(ev?.usage.basis).toBeUndefined();
  });
});

describe("usage.v1 size", () => {
  it("the largest event the schema accepts fits one batch message and NATS's payload limit", () => {
    const long = (n: number) => "x".repeat(n);
    const attributes = Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`${i}${long(63)}`, long(256)]));
    const largest = {
      ...event,
      request_id: long(128),
      org_id: long(128),
      key_id: long(128),
      model: long(256),
      route: long(64),
      provider: long(128),
      upstream_model: long(512),
      lease_id: long(128),
      line_items: Array.from({ length: 50 }, () => ({ item: long(64), quantity: Number.MAX_SAFE_INTEGER, unit_price_minor: Number.MAX_SAFE_INTEGER, per: long(32), attributes })),
      guardrails: Array.from({ length: 50 }, () => ({ plugin: long(64), name: long(128), outcome: "skipped" })),
      attempts: Array.from({ length: MAX_RECORDED_ATTEMPTS }, (_, i) => ({
        attempt: i + 1,
        provider: long(128),
        upstream_model: long(512),
        status: 599,
        outcome: "client_gone",
        input_tokens: Number.MAX_SAFE_INTEGER,
        output_tokens: Number.MAX_SAFE_INTEGER,
        estimated: true,
        cost_minor: Number.MAX_SAFE_INTEGER,
        provider_cost_minor: Number.MAX_SAFE_INTEGER,
        payer: "operator",
        duration_ms: Number.MAX_SAFE_INTEGER,
      })),
      usage: {
        input_tokens: Number.MAX_SAFE_INTEGER,
        output_tokens: Number.MAX_SAFE_INTEGER,
        cached_input_tokens: Number.MAX_SAFE_INTEGER,
        cache_creation_input_tokens: Number.MAX_SAFE_INTEGER,
        reasoning_tokens: Number.MAX_SAFE_INTEGER,
        estimated: true,
        basis: "estimated",
      },
      traceparent: long(128),
    };
    const parsed = UsageEventV1.safeParse(largest);
    expect(parsed.success).toBe(true);
    const bytes = encodeEvent(parsed.data).length;
    expect(bytes).toBeLessThanOrEqual(MAX_USAGE_EVENT_BYTES);
    expect(MAX_USAGE_EVENT_BYTES).toBeLessThan(USAGE_BATCH_MAX_BYTES);
    // One more attribute, a longer one, or a longer guardrail name is refused.
    expect(UsageEventV1.safeParse({ ...largest, line_items: [{ ...largest.line_items[0], attributes: { ...attributes, extra: "x" } }] }).success).toBe(false);
    expect(UsageEventV1.safeParse({ ...largest, line_items: [{ ...largest.line_items[0], attributes: { size: long(257) } }] }).success).toBe(false);
    expect(UsageEventV1.safeParse({ ...largest, guardrails: [{ plugin: "pii", name: long(129), outcome: "pass" }] }).success).toBe(false);
  });
});

describe("usage.v1.refused", () => {
  const refusal = {
    version: 1,
    request_id: "req_0190f3a5b2c1d4e5f6a7b8c9d0e1f2a3",
    org_id: "org_1",
    key_id: "key_1",
    model: "gw-nope",
    route: "chat",
    status: 404,
    error_code: "model_not_found",
    message: "The model 'gw-nope' does not exist.",
    stream: false,
    created_at_ms: 1,
    duration_ms: 1,
  };

  it("is bounded: the largest valid refusal is a small message (the stream's sizing counts 700 bytes for an ordinary one)", () => {
    const largest = {
      ...refusal,
      request_id: "r".repeat(128),
      org_id: "o".repeat(128),
      key_id: "k".repeat(128),
      model: "m".repeat(REFUSAL_MODEL_MAX),
      route: "x".repeat(64),
      error_code: "c".repeat(64),
      message: "e".repeat(REFUSAL_MESSAGE_MAX),
      model_resolved: false,
    };
    expect(decodeEvent(RefusalEventV1, encodeEvent(largest))).toBeDefined();
    expect(encodeEvent(largest).length).toBeLessThan(1_300);
    expect(decodeEvent(RefusalEventV1, encodeEvent({ ...largest, model: "m".repeat(REFUSAL_MODEL_MAX + 1) }))).toBeUndefined();
  });

  it("is a 4xx other than a usage event: a status outside 400–499, or a usage event on its subject, is not one", () => {
    expect(decodeEvent(RefusalEventV1, encodeEvent(refusal))).toMatchObject({ error_code: "model_not_found", model: "gw-nope" });
    expect(decodeEvent(RefusalEventV1, encodeEvent({ ...refusal, status: 200 }))).toBeUndefined();
    expect(decodeEvent(RefusalEventV1, encodeEvent(event))).toBeUndefined();
    // A model the body did not name is "".
    expect(decodeEvent(RefusalEventV1, encodeEvent({ ...refusal, model: "" }))?.model).toBe("");
  });
});
