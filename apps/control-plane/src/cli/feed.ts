import type { FeedEntry } from "@gateway/proto";
import { usageRow } from "./usage-export.js";

/**
 * One feed entry as a JSON line of `gatewayctl usage feed` (docs/billing.md, "The feed"): its number,
 * kind, organization (and external customer id), the month it belongs to, what it did to the balance
 * (minor units) and when it was recorded, then the record itself: a usage record as the export's
 * columns, an adjustment or a top-up as the ledger answers it.
 */
export function feedLine(e: FeedEntry): Record<string, unknown> {
  const head = {
    seq: e.seq,
    kind: e.kind,
    org_id: e.org_id,
    external_customer_id: e.external_customer_id,
    month: e.month,
    amount_minor: e.amount_minor,
    recorded_at: new Date(e.recorded_at_ms).toISOString(),
  };
  if (e.usage) return { ...head, usage: usageRow(e.usage) };
  if (e.top_up) return { ...head, top_up: { ...e.top_up, created_at: new Date(e.top_up.created_at_ms).toISOString() } };
  return { ...head, adjustment: e.adjustment };
}
