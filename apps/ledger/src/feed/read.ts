import { sql, type Kysely } from "@gateway/db";
import type { FeedEntry, TopUpRecord } from "@gateway/proto";
import type { AdjustmentRow, LedgerDb, TopUpRow, UsageRow } from "../db/schema.js";
import { toAdjustment } from "../adjustments/adjust.js";
import { REFUNDED } from "../adjustments/refunds.js";
import { monthIn, termsOf } from "../billing/terms.js";
import { toRecord } from "../rpc/get-usage.js";

/** The wire form of a top-up. */
export function toTopUp(t: TopUpRow): TopUpRecord {
  return {
    top_up_id: t.id,
    org_id: t.org_id,
    amount_minor: Number(t.amount_minor),
    made_by: t.made_by,
    created_at_ms: t.created_at.getTime(),
    paid_amount_minor: Number(t.paid_amount_minor ?? 0),
    paid_currency: t.paid_currency ?? "",
    payment_reference: t.payment_reference ?? "",
    invoice_reference: t.invoice_reference ?? "",
  };
}

/** What an adjustment does to the balance: credits, minus an expiry, nothing for a limit. */
export function adjustmentEffect(a: Pick<AdjustmentRow, "kind" | "amount_minor">): number {
  if (a.kind === "credit_limit") return 0;
  return a.kind === "promo_expiry" ? -Number(a.amount_minor) : Number(a.amount_minor);
}

/**
 * The feed's entries numbered in (after, through], in number order, at most `limit`: usage records,
 * top-ups and adjustments of every organization, each read by its number's index (every month of
 * usage_records merged in order by the partitioned index). `through` must be at or below the
 * watermark: nothing numbered below it can still commit, so a reader resuming after the last number
 * it got never misses one.
 */
export async function readFeed(db: Kysely<LedgerDb>, after: number, through: number, limit: number): Promise<FeedEntry[]> {
  if (through <= after || limit <= 0) return [];
  const [usage, topUps, adjustments] = await Promise.all([
    sql<UsageRow & { refunded: string | null }>`
      SELECT u.*, ${REFUNDED} AS refunded FROM usage_records u WHERE u.feed_seq > ${after} AND u.feed_seq <= ${through} ORDER BY u.feed_seq LIMIT ${limit}`.execute(db),
    sql<TopUpRow>`SELECT * FROM top_ups WHERE feed_seq > ${after} AND feed_seq <= ${through} ORDER BY feed_seq LIMIT ${limit}`.execute(db),
    sql<AdjustmentRow>`SELECT * FROM adjustments WHERE feed_seq > ${after} AND feed_seq <= ${through} ORDER BY feed_seq LIMIT ${limit}`.execute(db),
  ]);
  type Item = { seq: number; orgId: string } & ({ usage: UsageRow & { refunded: string | null } } | { topUp: TopUpRow } | { adjustment: AdjustmentRow });
  const items: Item[] = [
    ...usage.rows.map((u) => ({ seq: Number(u.feed_seq), orgId: u.org_id, usage: u })),
    ...topUps.rows.map((t) => ({ seq: Number(t.feed_seq), orgId: t.org_id, topUp: t })),
    ...adjustments.rows.map((a) => ({ seq: Number(a.feed_seq), orgId: a.org_id, adjustment: a })),
  ]
    .sort((a, b) => a.seq - b.seq)
    .slice(0, limit);
  const terms = await termsOf(
    db,
    items.map((i) => i.orgId),
  );
  return items.map((i): FeedEntry => {
    const t = terms.get(i.orgId)!;
    const base = { seq: i.seq, org_id: i.orgId, external_customer_id: t.externalCustomerId };
    if ("usage" in i) {
      const u = i.usage;
      return {
        ...base,
        kind: "usage",
        // The month the request was received in, however late it was applied.
        month: monthIn(u.created_at, t.timeZone),
        amount_minor: -Number(u.cost_minor),
        recorded_at_ms: u.recorded_at.getTime(),
        usage: toRecord(u, { refundedMinor: Number(u.refunded ?? 0), externalCustomerId: t.externalCustomerId }),
        adjustment: null,
        top_up: null,
      };
    }
    if ("topUp" in i) {
      return {
        ...base,
        kind: "top_up",
        month: monthIn(i.topUp.created_at, t.timeZone),
        amount_minor: Number(i.topUp.amount_minor),
        recorded_at_ms: i.topUp.created_at.getTime(),
        usage: null,
        adjustment: null,
        top_up: toTopUp(i.topUp),
      };
    }
    const a = i.adjustment;
    return {
      ...base,
      kind: a.kind,
      month: a.period,
      amount_minor: adjustmentEffect(a),
      recorded_at_ms: a.created_at.getTime(),
      usage: null,
      adjustment: toAdjustment(a),
      top_up: null,
    };
  });
}
