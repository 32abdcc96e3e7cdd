import { describe, expect, it } from "vitest";
import type { UsageRecord } from "@gateway/proto";
import { CSV_HEADER, USAGE_COLUMNS, csvField, formatRecord } from "./usage-export.js";

const record: UsageRecord = {
  request_id: "req_1",
  org_id: "org_1",
  key_id: "key_1",
  model: "gw-chat-mini",
  route: "chat",
  provider: "fake",
  upstream_model: 'odd,"name"\nwith a newline',
  input_tokens: 12,
  output_tokens: 30,
  cached_input_tokens: 2,
  cache_creation_input_tokens: 0,
  reasoning_tokens: 5,
  estimated: false,
  cost_minor: 21,
  created_at_ms: Date.UTC(2026, 10, 1, 9, 30, 0, 250),
  stream: true,
  input_price_minor_per_mtok: 150_000,
  output_price_minor_per_mtok: 600_000,
  line_items_json: JSON.stringify([{ item: "input_tokens", quantity: 10, unit_price_minor: 150_000, per: "1M tokens" }]),
  guardrails_json: JSON.stringify([{ plugin: "pii", outcome: "masked" }]),
  status: 200,
  duration_ms: 41,
  journal_txn_id: "post_1",
  recorded_at_ms: Date.UTC(2026, 10, 1, 9, 30, 1),
  attempts_json: JSON.stringify([
    {
      attempt: 1,
      provider: "fake",
      upstream_model: "m",
      status: 503,
      outcome: "failed",
      input_tokens: 0,
      output_tokens: 0,
      estimated: false,
      cost_minor: 0,
      provider_cost_minor: 0,
      payer: "none",
      duration_ms: 4,
    },
    {
      attempt: 2,
      provider: "fake",
      upstream_model: "m",
      status: 200,
      outcome: "served",
      input_tokens: 12,
      output_tokens: 30,
      estimated: false,
      cost_minor: 21,
      provider_cost_minor: 15,
      payer: "caller",
      duration_ms: 30,
    },
  ]),
  provider_cost_minor: 15,
  basis: "drained",
  catalog_version: 7,
  route_pin: "hit",
  end_user: "alice@example.com",
  project_id: "",
  tags: ["team:search", "eval"],
  feed_seq: 42,
  service_tier: "flex",
  refunded_minor: 5,
  external_customer_id: "cus_123",
  error_code: "",
  error_message: "",
};

describe("usage export formats", () => {
  it("quotes CSV fields as RFC 4180 asks, and only those that need it", () => {
    expect(csvField("plain")).toBe("plain");
    expect(csvField("a,b")).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField("two\r\nlines")).toBe('"two\r\nlines"');
    expect(CSV_HEADER).toBe(`${USAGE_COLUMNS.join(",")}\r\n`);
  });

  it("writes one CRLF-terminated CSV row in column order, line items as one JSON field", () => {
    const line = formatRecord(record, "csv");
    expect(line).toBe(
      'req_1,org_1,key_1,2026-11-01T09:30:00.250Z,2026-11-01T09:30:01.000Z,gw-chat-mini,chat,fake,"odd,""name""\nwith a newline",200,true,false,41,12,2,0,30,5,150000,600000,21,post_1,' +
        '"[{""item"":""input_tokens"",""quantity"":10,""unit_price_minor"":150000,""per"":""1M tokens""}]",15,' +
        '"[{""attempt"":1,""provider"":""fake"",""upstream_model"":""m"",""status"":503,""outcome"":""failed"",""input_tokens"":0,""output_tokens"":0,""estimated"":false,""cost_minor"":0,""provider_cost_minor"":0,""payer"":""none"",""duration_ms"":4},' +
        '{""attempt"":2,""provider"":""fake"",""upstream_model"":""m"",""status"":200,""outcome"":""served"",""input_tokens"":12,""output_tokens"":30,""estimated"":false,""cost_minor"":21,""provider_cost_minor"":15,""payer"":""caller"",""duration_ms"":30}]",drained,hit,alice@example.com,,' +
        '"[""team:search"",""eval""]",7,cus_123,flex,5,"[{""plugin"":""pii"",""outcome"":""masked""}]",42,\r\n',
    );
  });

  it('reads a record without a basis (a ledger before it answers "") from estimated', () => {
    expect(JSON.parse(formatRecord({ ...record, basis: "" }, "jsonl")).basis).toBe("reported");
    expect(JSON.parse(formatRecord({ ...record, basis: "", estimated: true }, "jsonl")).basis).toBe("estimated");
    expect(formatRecord({ ...record, basis: "", estimated: true }, "csv")).toContain(",estimated,hit,");
  });

  it("writes one JSON line with typed values and the line items nested", () => {
    const line = formatRecord(record, "jsonl");
    expect(line.endsWith("\n")).toBe(true);
    const o = JSON.parse(line) as Record<string, unknown>;
    expect(Object.keys(o)).toEqual([...USAGE_COLUMNS]);
    expect(o).toMatchObject({ created_at: "2026-11-01T09:30:00.250Z", stream: true, cost_minor: 21, status: 200, line_items: [{ item: "input_tokens", quantity: 10 }] });
    expect(o.provider_cost_minor).toBe(15);
    expect(o.basis).toBe("drained");
    // Whether the turn landed on its session's pinned deployment.
    expect(o.route_pin).toBe("hit");
    // Commercial metadata, attribution, adjustments and the feed's number (docs/billing.md, "Usage export").
    expect(o).toMatchObject({
      catalog_version: 7,
      end_user: "alice@example.com",
      project_id: "",
      tags: ["team:search", "eval"],
      external_customer_id: "cus_123",
      service_tier: "flex",
      refunded_minor: 5,
      guardrails: [{ plugin: "pii", outcome: "masked" }],
      feed_seq: 42,
      error_code: "",
    });
    expect(
      formatRecord({ ...record, error_code: "model_not_found", cost_minor: 0 }, "csv")
        .trimEnd()
        .endsWith(",model_not_found"),
    ).toBe(true);
    expect(o.attempts).toMatchObject([
      { attempt: 1, outcome: "failed", payer: "none" },
      { attempt: 2, outcome: "served", payer: "caller", cost_minor: 21 },
    ]);
  });

  it("writes the request's end user, its key's project and its tags (a JSON array in one CSV field) after route_pin", () => {
    const attributed = { ...record, end_user: 'user "7", eu', project_id: "proj_1", tags: ["team:search", "eval"] };
    expect(formatRecord(attributed, "csv")).toContain(',hit,"user ""7"", eu",proj_1,"[""team:search"",""eval""]",7,');
    expect(JSON.parse(formatRecord(attributed, "jsonl"))).toMatchObject({ end_user: 'user "7", eu', project_id: "proj_1", tags: ["team:search", "eval"] });
  });
});
