import { describe, expect, it } from "vitest";
import { webhookBody } from "./event.js";

describe("the webhook's JSON", () => {
  it("names the alert, its kind and the budget's window, threshold and amounts", () => {
    const body = webhookBody({
      version: 1,
      alert_id: "alert_b1",
      org_id: "org_1",
      kind: "budget",
      scope: "key:key_1",
      window_start_ms: Date.UTC(2026, 11, 1),
      window_end_ms: Date.UTC(2027, 0, 1),
      threshold_pct: 80,
      limit_minor: 5_000,
      spent_minor: 4_100,
      created_at_ms: Date.UTC(2026, 11, 3, 9, 30),
    });
    expect(JSON.parse(body)).toEqual({
      id: "alert_b1",
      type: "budget.threshold_crossed",
      created_at: "2026-12-03T09:30:00.000Z",
      org_id: "org_1",
      budget: { scope: "key:key_1", window_start: "2026-12-01T00:00:00.000Z", window_end: "2027-01-01T00:00:00.000Z", threshold_pct: 80, limit_minor: 5_000, spent_minor: 4_100 },
    });
  });

  it("says a window that never ends with null, and the balance's threshold and balance", () => {
    const none = JSON.parse(
      webhookBody({ version: 1, alert_id: "a", org_id: "o", kind: "budget", scope: "org", window_start_ms: 0, window_end_ms: 0, threshold_pct: 50, limit_minor: 10, spent_minor: 5, created_at_ms: 0 }),
    ) as {
      budget: unknown;
    };
    expect(none.budget).toMatchObject({ window_start: null, window_end: null });
    const balance = JSON.parse(webhookBody({ version: 1, alert_id: "a2", org_id: "o", kind: "balance", threshold_minor: 1_000_000, balance_minor: 940_000, created_at_ms: 0 })) as Record<
      string,
      unknown
    >;
    expect(balance).toMatchObject({ type: "balance.threshold_crossed", balance: { threshold_minor: 1_000_000, balance_minor: 940_000 } });
    expect(balance).not.toHaveProperty("budget");
  });
});
