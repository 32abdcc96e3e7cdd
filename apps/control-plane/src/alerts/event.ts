import type { LedgerAlertV1 } from "@gateway/events";

const iso = (ms: number | undefined) => (ms ? new Date(ms).toISOString() : null);

/**
 * The JSON a webhook receives for one alert (docs/billing.md, "Alerts"): made once when the alert
 * arrives and kept, so every attempt sends the same bytes. `id` is the Gateway-Event-Id header.
 * Amounts are minor credit units (1 credit = 1,000,000).
 */
export function webhookBody(ev: LedgerAlertV1): string {
  const head = { id: ev.alert_id, type: `${ev.kind}.threshold_crossed`, created_at: new Date(ev.created_at_ms).toISOString(), org_id: ev.org_id };
  if (ev.kind === "budget") {
    return JSON.stringify({
      ...head,
      budget: {
        scope: ev.scope ?? "",
        window_start: iso(ev.window_start_ms),
        window_end: iso(ev.window_end_ms),
        threshold_pct: ev.threshold_pct ?? 0,
        limit_minor: ev.limit_minor ?? 0,
        spent_minor: ev.spent_minor ?? 0,
      },
    });
  }
  return JSON.stringify({ ...head, balance: { threshold_minor: ev.threshold_minor ?? 0, balance_minor: ev.balance_minor ?? 0 } });
}
