import { describe, expect, it } from "vitest";
import { UsageEventV1, decodeEvent, encodeEvent } from "./index.js";

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
