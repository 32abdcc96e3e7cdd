import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { AdjustmentResponse, RefundUsageRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { adjust, idempotencyKey, madeBy, text, writeAdjustment } from "../adjustments/adjust.js";
import { monthIn, termsOfOrg } from "../billing/terms.js";

/** "RFND": the class of the advisory lock that makes a request's refunds one at a time. */
const REFUND_LOCK = 0x52464e44;

/**
 * RefundUsage: gives back all or part of what a usage record cost (docs/billing.md, "Adjustments").
 * Never more than the record cost, whatever is asked at once or in repeated refunds: a request's
 * refunds are taken one at a time (an advisory lock on its id) and summed before the next. The
 * refund belongs to the month of its request (the organization's time zone), so a statement can
 * show what it corrects. Idempotent on the key; another refund under a used key is already_exists.
 */
export function refundUsage(ctx: LedgerContext) {
  return async (req: RefundUsageRequest): Promise<AdjustmentResponse> => {
    if (!req.org_id || !req.request_id) throw new GatewayError("invalid_request", "org_id and request_id are required");
    if (!Number.isSafeInteger(req.amount_minor) || req.amount_minor < 0) throw new GatewayError("invalid_request", "amount_minor must be a non-negative integer (0: what is left of the cost)");
    const who = madeBy(req.operator);
    const reason = text(req.reason, "reason", 1_000, true);
    const key = idempotencyKey(req.idempotency_key);
    const terms = await termsOfOrg(ctx.db, req.org_id);
    return adjust(ctx, req.org_id, async (trx) => {
      const prior = await trx.selectFrom("adjustments").selectAll().where("idempotency_key", "=", key).executeTakeFirst();
      const same = (p: { kind: string; org_id: string; request_id: string | null; amount_minor: number }) =>
        p.kind === "refund" && p.org_id === req.org_id && p.request_id === req.request_id && (req.amount_minor === 0 || Number(p.amount_minor) === req.amount_minor);
      if (prior) {
        if (!same(prior)) throw new GatewayError("already_exists", `idempotency key '${key}' was used for a different adjustment (${prior.kind} ${prior.id})`);
        return { row: prior, duplicate: true };
      }
      await sql`SELECT pg_advisory_xact_lock(${REFUND_LOCK}, hashtext(${req.request_id}))`.execute(trx);
      // Another organization's record is not found, as a missing one. Every month has a request id index.
      const record = await trx.selectFrom("usage_records").select(["cost_minor", "created_at"]).where("request_id", "=", req.request_id).where("org_id", "=", req.org_id).executeTakeFirst();
      if (!record) throw new GatewayError("not_found", `No usage record for request '${req.request_id.slice(0, 80)}' in this organization.`);
      const done = await sql<{ s: string }>`
        SELECT coalesce(sum(amount_minor), 0) AS s FROM adjustments WHERE kind = 'refund' AND request_id = ${req.request_id} AND org_id = ${req.org_id}`.execute(trx);
      const left = Number(record.cost_minor) - Number(done.rows[0]!.s);
      const amount = req.amount_minor === 0 ? left : req.amount_minor;
      if (amount <= 0) throw new GatewayError("invalid_request", `request '${req.request_id.slice(0, 80)}' has nothing left to refund (it cost ${record.cost_minor} minor units, all refunded)`);
      if (amount > left)
        throw new GatewayError(
          "invalid_request",
          `amount_minor ${amount} is more than is left to refund of request '${req.request_id.slice(0, 80)}' (${left} of its ${record.cost_minor} minor units)`,
        );
      return writeAdjustment(
        trx,
        { orgId: req.org_id, kind: "refund", amount, requestId: req.request_id, period: monthIn(record.created_at, terms.timeZone), madeBy: who, reason, idempotencyKey: key },
        same,
      );
    });
  };
}
