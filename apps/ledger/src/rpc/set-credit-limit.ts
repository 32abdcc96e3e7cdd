import { GatewayError } from "@gateway/errors";
import type { AdjustmentResponse, SetCreditLimitRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { adjust, idempotencyKey, madeBy, text, writeAdjustment } from "../adjustments/adjust.js";
import { monthIn, termsOfOrg } from "../billing/terms.js";

/**
 * SetCreditLimit: how far the organization's balance may go below zero (postpaid, invoiced for
 * what it used); leases then grant from balance + limit − held. Recorded as an adjustment that
 * moves no money (in the feed and the statements, no journal transaction). Setting the limit it
 * already has records nothing and answers the last change as a repeat; so does a used key.
 */
export function setCreditLimit(ctx: LedgerContext) {
  return async (req: SetCreditLimitRequest): Promise<AdjustmentResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const limit = req.credit_limit_minor;
    if (!Number.isSafeInteger(limit) || limit < 0) throw new GatewayError("invalid_request", "credit_limit_minor must be a non-negative integer (minor units)");
    const who = madeBy(req.operator);
    const reason = text(req.reason, "reason", 1_000);
    const key = idempotencyKey(req.idempotency_key, false);
    const period = monthIn(new Date(), (await termsOfOrg(ctx.db, req.org_id)).timeZone);
    return adjust(ctx, req.org_id, async (trx) => {
      const same = (p: { kind: string; org_id: string; amount_minor: number }) => p.kind === "credit_limit" && p.org_id === req.org_id && Number(p.amount_minor) === limit;
      if (key) {
        const prior = await trx.selectFrom("adjustments").selectAll().where("idempotency_key", "=", key).executeTakeFirst();
        if (prior) {
          if (!same(prior)) throw new GatewayError("already_exists", `idempotency key '${key}' was used for a different adjustment (${prior.kind} ${prior.id})`);
          return { row: prior, duplicate: true };
        }
      }
      // Read, not locked: the adjustment's row comes before the account in every adjustment's lock order.
      const account = await trx.selectFrom("accounts").select("credit_limit_minor").where("org_id", "=", req.org_id).executeTakeFirst();
      if (Number(account?.credit_limit_minor ?? 0) === limit) {
        const last = await trx.selectFrom("adjustments").selectAll().where("org_id", "=", req.org_id).where("kind", "=", "credit_limit").orderBy("created_at", "desc").executeTakeFirst();
        if (last) return { row: last, duplicate: true };
      }
      return writeAdjustment(trx, { orgId: req.org_id, kind: "credit_limit", amount: limit, period, madeBy: who, reason, idempotencyKey: key }, same);
    });
  };
}
