import { Counter, Gauge, type Registry } from "@gateway/observability";

/** The alerts' metrics (docs/operations.md, "Runbook: webhook deliveries failing"), made once per control-plane. */
export interface AlertMetrics {
  /** Announcements taken from the durable: `stored` (a new alert), `duplicate` (its id was known: nothing more is sent), `invalid`. */
  received: Counter<"outcome">;
  /** Webhook attempts: `delivered` (2xx), `failed` (tried again later), `gave_up` (failed, and the last). */
  deliveries: Counter<"result">;
  /** Alerts waiting to be delivered, and how long the oldest of them has waited (seconds), as this replica last saw. */
  pending: Gauge;
  oldestPendingSeconds: Gauge;
}

export function createAlertMetrics(registry: Registry): AlertMetrics {
  return {
    received: new Counter({
      name: "control_alerts_received_total",
      help: "Alert announcements from the ledger, by outcome (stored, duplicate, invalid)",
      labelNames: ["outcome"],
      registers: [registry],
    }),
    deliveries: new Counter({
      name: "control_webhook_deliveries_total",
      help: "Alert webhook attempts by result: delivered (2xx), failed (retried later), gave_up (failed, no attempt left)",
      labelNames: ["result"],
      registers: [registry],
    }),
    pending: new Gauge({ name: "control_webhook_pending_alerts", help: "Alerts waiting for their webhook delivery", registers: [registry] }),
    oldestPendingSeconds: new Gauge({ name: "control_webhook_oldest_pending_seconds", help: "How long the oldest alert waiting for delivery has waited, seconds", registers: [registry] }),
  };
}
