import { GatewayError } from "@gateway/errors";
import type { AdjustmentResponse, PromoCreditRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { adjust, idempotencyKey, madeBy, positive, text, writeAdjustment } from "../adjustments/adjust.js";
import { monthIn, termsOfOrg } from "../billing/terms.js";

/**
 * GrantPromoCredit: promotional credit (docs/billing.md, "Adjustments"): its own journal account
 * (promo:<id> / system:promotions), part of the balance leases grant from, drawn before paid credit
 * by every usage batch, not a top-up (the trial's unlock counts top-ups only). With an expiry, what is
 * left of it then is removed (promo-expiry.ts), but never what holds cover.
 */
export function grantPromoCredit(ctx: LedgerContext) {
  return async (req: PromoCreditRequest): Promise<AdjustmentResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const amount = positive(req.amount_minor);
    if (!Number.isSafeInteger(req.expires_at_ms) || req.expires_at_ms < 0) throw new GatewayError("invalid_request", "expires_at_ms must be a Unix time in milliseconds (0: never)");
    const who = madeBy(req.operator);
    const reason = text(req.reason, "reason", 1_000, true);
    const key = idempotencyKey(req.idempotency_key);
    const expiresAt = req.expires_at_ms > 0 ? new Date(req.expires_at_ms) : undefined;
    const period = monthIn(new Date(), (await termsOfOrg(ctx.db, req.org_id)).timeZone);
    return adjust(ctx, req.org_id, async (trx) => {
      const prior = await trx.selectFrom("adjustments").selectAll().where("idempotency_key", "=", key).executeTakeFirst();
      // A new grant must end in the future (a repeat of an old one is answered as it was).
      if (!prior && expiresAt && expiresAt.getTime() <= Date.now()) throw new GatewayError("invalid_request", "expires_at_ms must be in the future");
      return writeAdjustment(
        trx,
        { orgId: req.org_id, kind: "promo_grant", amount, period, madeBy: who, reason, ...(expiresAt ? { expiresAt } : {}), idempotencyKey: key },
        (p) => p.kind === "promo_grant" && p.org_id === req.org_id && Number(p.amount_minor) === amount && (p.expires_at?.getTime() ?? 0) === req.expires_at_ms,
      );
    });
  };
}
