import { describe, expect, it } from "vitest";
import type { Statement } from "@gateway/proto";
import { STATEMENT_CSV_HEADER, statementCsv, statementRows, statementTies } from "./statement.js";

const adjustment = {
  request_id: "",
  period: "2026-11",
  reason: "",
  reference: "",
  made_by: "admin:ops",
  created_at_ms: Date.UTC(2026, 10, 20),
  expires_at_ms: 0,
  expired_minor: 0,
  grant_id: "",
  seq: 0,
  org_id: "org_1",
};
const statement: Statement = {
  org_id: "org_1",
  external_customer_id: "cus_1",
  month: "2026-11",
  time_zone: "UTC",
  from_ms: Date.UTC(2026, 10, 1),
  to_ms: Date.UTC(2026, 11, 1),
  currency: "EUR",
  price_per_credit_micros: 1_000_000,
  opening_balance_minor: 1_000,
  // 1,000 + 10,000 top-up − 2,601 usage + 500 refund + 200 credit note − 50 expired = 9,049
  closing_balance_minor: 9_049,
  lines: [
    { model: "gw-chat-mini", item: "input_tokens", per: "1M tokens", unit_price_minor: 150_000, quantity: 10_003, amount_minor: 1_500, amount_exact_minor: "1500.45" },
    { model: "gw-chat-mini", item: "output_tokens", per: "1M tokens", unit_price_minor: 600_000, quantity: 1_834, amount_minor: 1_100, amount_exact_minor: "1100.4" },
  ],
  lines_minor: 2_600,
  rounding_minor: 1,
  usage_minor: 2_601,
  requests: 3,
  late_usage_minor: 0,
  adjustments: [
    { ...adjustment, adjustment_id: "adj_1", kind: "refund", amount_minor: 500, request_id: "req_1", reason: "cut off" },
    { ...adjustment, adjustment_id: "adj_2", kind: "credit_note", amount_minor: 200 },
    { ...adjustment, adjustment_id: "adj_3", kind: "promo_expiry", amount_minor: 50, grant_id: "adj_0" },
    { ...adjustment, adjustment_id: "adj_4", kind: "credit_limit", amount_minor: 9_000 },
  ],
  adjustments_minor: 650,
  top_ups: [
    {
      top_up_id: "top_1",
      org_id: "org_1",
      amount_minor: 10_000,
      made_by: "admin",
      created_at_ms: Date.UTC(2026, 10, 2),
      paid_amount_minor: 1,
      paid_currency: "EUR",
      payment_reference: "pi_1",
      invoice_reference: "",
    },
  ],
  top_ups_minor: 10_000,
  opening_promo_minor: 0,
  closing_promo_minor: 0,
  credit_limit_minor: 9_000,
};

describe("statements", () => {
  it("are rows that tie: the closing balance is the opening less every charge, the usage lines and the rounding are the usage", () => {
    const rows = statementRows(statement);
    expect(rows.map((r) => [r.section, r.amount_minor])).toEqual([
      ["opening_balance", ""],
      ["top_up", -10_000],
      ["usage", 1_500],
      ["usage", 1_100],
      ["rounding", 1],
      ["adjustment", -500],
      ["adjustment", -200],
      ["adjustment", 50],
      ["adjustment", 0],
      ["closing_balance", ""],
    ]);
    expect(statementTies(statement, rows)).toEqual({ charges: 1_000 - 9_049, ties: true });
    // One minor unit off anywhere, and it does not.
    expect(statementTies({ ...statement, closing_balance_minor: 9_048 }, rows).ties).toBe(false);
    expect(statementTies({ ...statement, usage_minor: 2_602 }, rows).ties).toBe(false);
  });

  it("prints RFC 4180 CSV with the amounts in the currency at the price of a credit", () => {
    const csv = statementCsv(statementRows(statement));
    expect(csv.startsWith(STATEMENT_CSV_HEADER)).toBe(true);
    expect(csv.split("\r\n")[2]).toBe("top_up,2026-11-02T00:00:00.000Z,top_1,Top-up (paid 1 EUR minor units) — payment pi_1,,,,,,-10000,,,-0.01");
    expect(csv).toContain(",adj_1,Refund of request req_1 for 2026-11 — cut off (admin:ops),,refund,");
  });
});
