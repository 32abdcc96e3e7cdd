import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { Statement, StatementLine, UsageStatementRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { AdjustmentRow, TopUpRow } from "../db/schema.js";
import { toAdjustment } from "../adjustments/adjust.js";
import { adjustmentEffect, toTopUp } from "../feed/read.js";
import { exactDecimal, perDenominator, roundHalfUp } from "../billing/amounts.js";
import { checkMonth, checkTimeZone, termsOfOrg } from "../billing/terms.js";

/** How much earlier than it was recorded a record may have been received: the longest deduplication horizon, and a day of skew. */
const RECEIVED_BEFORE_MS = 32 * 86_400_000;
const RECEIVED_AFTER_MS = 86_400_000;

/**
 * UsageStatement (gatewayctl usage statement; docs/billing.md, "Statements"): one organization's
 * month as the ledger recorded it, in UTC or a time zone. What it holds is what the ledger did in
 * [from, to): the usage records applied then (a late one, received in an earlier month, is in the
 * month it was applied in, counted apart as late), the top-ups and the adjustments made then.
 * Opening and closing balances are the organization's journal accounts (paid and promotional)
 * summed before `from` and before `to`, so
 *
 *   closing = opening + top-ups + adjustments − usage
 *
 * to the minor unit: each posting is written in the transaction that records what it carries, at
 * the same instant. Usage lines are the records' line items per model, token class and unit price;
 * each line's amount is its exact quantity × price rounded half up, and the rounding line is what the
 * records cost beyond the lines (each request is rounded up once; a capped one is billed at its grant).
 * Read in one repeatable-read snapshot.
 */
export function usageStatement(ctx: LedgerContext) {
  return async (req: UsageStatementRequest): Promise<Statement> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const month = checkMonth(req.month);
    const terms = await termsOfOrg(ctx.db, req.org_id);
    const tz = req.time_zone ? checkTimeZone(req.time_zone) : terms.timeZone;
    return ctx.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .setAccessMode("read only")
      .execute(async (trx) => {
        const bounds = await sql<{ from: Date; to: Date }>`
          SELECT (${`${month}-01`}::timestamp AT TIME ZONE ${tz}) AS "from", ((${`${month}-01`}::timestamp + interval '1 month') AT TIME ZONE ${tz}) AS "to"`
          .execute(trx)
          .catch((err: unknown) => {
            if ((err as { code?: string }).code === "22023") throw new GatewayError("invalid_request", `time_zone '${tz}' is not known to Postgres`);
            throw err;
          });
        const { from, to } = bounds.rows[0]!;
        const received = { from: new Date(from.getTime() - RECEIVED_BEFORE_MS), to: new Date(to.getTime() + RECEIVED_AFTER_MS) };
        // The records recorded in the month, found on (org_id, created_at): received at most the horizon before.
        const inMonth = sql`org_id = ${req.org_id} AND created_at >= ${received.from} AND created_at < ${received.to} AND recorded_at >= ${from} AND recorded_at < ${to}`;
        const balances = await sql<{ opening: string; closing: string; opening_promo: string; closing_promo: string }>`
          SELECT coalesce(sum(amount_minor) FILTER (WHERE created_at < ${from}), 0) AS opening,
            coalesce(sum(amount_minor) FILTER (WHERE created_at < ${to}), 0) AS closing,
            coalesce(sum(amount_minor) FILTER (WHERE created_at < ${from} AND account LIKE 'promo:%'), 0) AS opening_promo,
            coalesce(sum(amount_minor) FILTER (WHERE created_at < ${to} AND account LIKE 'promo:%'), 0) AS closing_promo
          FROM journal_entries WHERE account IN (${`org:${req.org_id}`}, ${`promo:${req.org_id}`})`.execute(trx);
        const totals = await sql<{ requests: string; usage: string; late: string }>`
          SELECT count(*) AS requests, coalesce(sum(cost_minor), 0) AS usage, coalesce(sum(cost_minor) FILTER (WHERE created_at < ${from}), 0) AS late
          FROM usage_records WHERE ${inMonth} AND error_code IS NULL`.execute(trx);
        const items = await sql<{ model: string; item: string; per: string; price: string; quantity: string }>`
          SELECT r.model, li->>'item' AS item, li->>'per' AS per, li->>'unit_price_minor' AS price, sum((li->>'quantity')::bigint) AS quantity
          FROM usage_records r CROSS JOIN LATERAL jsonb_array_elements(r.line_items) li
          WHERE ${inMonth} AND r.cost_minor > 0
          GROUP BY 1, 2, 3, 4 ORDER BY 1, 2, 4`.execute(trx);
        const adjustments = await sql<AdjustmentRow>`
          SELECT * FROM adjustments WHERE org_id = ${req.org_id} AND created_at >= ${from} AND created_at < ${to} ORDER BY created_at, id`.execute(trx);
        const topUps = await sql<TopUpRow>`
          SELECT * FROM top_ups WHERE org_id = ${req.org_id} AND created_at >= ${from} AND created_at < ${to} ORDER BY created_at, id`.execute(trx);
        const limit = await trx.selectFrom("accounts").select("credit_limit_minor").where("org_id", "=", req.org_id).executeTakeFirst();

        const lines: StatementLine[] = items.rows
          .filter((l) => BigInt(l.quantity) > 0n)
          .map((l) => {
            const numerator = BigInt(l.quantity) * BigInt(l.price);
            const denominator = perDenominator(l.per);
            return {
              model: l.model,
              item: l.item,
              per: l.per,
              unit_price_minor: Number(l.price),
              quantity: Number(l.quantity),
              amount_minor: Number(roundHalfUp(numerator, denominator)),
              amount_exact_minor: exactDecimal(numerator, denominator),
            };
          });
        const linesMinor = lines.reduce((s, l) => s + l.amount_minor, 0);
        const usage = Number(totals.rows[0]!.usage);
        const b = balances.rows[0]!;
        return {
          org_id: req.org_id,
          external_customer_id: terms.externalCustomerId,
          month,
          time_zone: tz,
          from_ms: from.getTime(),
          to_ms: to.getTime(),
          currency: terms.currency,
          price_per_credit_micros: terms.pricePerCreditMicros,
          opening_balance_minor: Number(b.opening),
          closing_balance_minor: Number(b.closing),
          lines,
          lines_minor: linesMinor,
          rounding_minor: usage - linesMinor,
          usage_minor: usage,
          requests: Number(totals.rows[0]!.requests),
          late_usage_minor: Number(totals.rows[0]!.late),
          adjustments: adjustments.rows.map(toAdjustment),
          adjustments_minor: adjustments.rows.reduce((s, a) => s + adjustmentEffect(a), 0),
          top_ups: topUps.rows.map(toTopUp),
          top_ups_minor: topUps.rows.reduce((s, t) => s + Number(t.amount_minor), 0),
          opening_promo_minor: Number(b.opening_promo),
          closing_promo_minor: Number(b.closing_promo),
          credit_limit_minor: Number(limit?.credit_limit_minor ?? 0),
        };
      });
  };
}
