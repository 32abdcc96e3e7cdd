import { GatewayError } from "@gateway/errors";
import type { AdjustmentResponse, CreditNoteRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { adjust, idempotencyKey, madeBy, positive, text, writeAdjustment } from "../adjustments/adjust.js";
import { checkMonth, monthIn, termsOfOrg } from "../billing/terms.js";

/**
 * IssueCreditNote: credits the organization an amount not tied to one request (a service credit, a
 * corrected invoice), for a month (default: the current one in its time zone), with a reference of
 * the caller's. Journaled org:<id> / system:credit_notes; idempotent on the key.
 */
export function issueCreditNote(ctx: LedgerContext) {
  return async (req: CreditNoteRequest): Promise<AdjustmentResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const amount = positive(req.amount_minor);
    const who = madeBy(req.operator);
    const reason = text(req.reason, "reason", 1_000, true);
    const reference = text(req.reference, "reference", 200);
    const key = idempotencyKey(req.idempotency_key);
    const period = req.period ? checkMonth(req.period, "period") : monthIn(new Date(), (await termsOfOrg(ctx.db, req.org_id)).timeZone);
    return adjust(ctx, req.org_id, (trx) =>
      writeAdjustment(
        trx,
        { orgId: req.org_id, kind: "credit_note", amount, period, madeBy: who, reason, reference, idempotencyKey: key },
        (p) => p.kind === "credit_note" && p.org_id === req.org_id && Number(p.amount_minor) === amount,
      ),
    );
  };
}
