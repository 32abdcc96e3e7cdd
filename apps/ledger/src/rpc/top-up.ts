import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import { verifyTopUpGrant, type TopUpRequest, type TopUpResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { Account, TopUpRow } from "../db/schema.js";
import { lockAccount, monthSpent, toCredits } from "../accounts.js";
import { newId } from "../ids.js";
import { text } from "../adjustments/adjust.js";
import { checkCurrency } from "../billing/terms.js";

/** TopUp: the admin token's (gatewayctl), recorded as made by `admin`. */
export function topUp(ctx: LedgerContext) {
  return (req: TopUpRequest): Promise<TopUpResponse> => credit(ctx, req, { madeBy: "admin", grantId: null });
}

/**
 * TopUpWithGrant: the console's, only with a grant the control-plane signed for an operator's session
 * that names this very organization, amount and idempotency key (docs/security.md, "Top-ups").
 */
export function topUpWithGrant(ctx: LedgerContext) {
  return async (req: TopUpRequest): Promise<TopUpResponse> => {
    const key = ctx.config.grantPublicKey;
    if (!key) throw new GatewayError("forbidden", "top-ups through the console need LEDGER_GRANT_PUBLIC_KEY (the control-plane's grant key)");
    if (!req.grant) throw new GatewayError("forbidden", "a top-up through the console needs an operator's grant");
    // A minute's grant, checked with a few seconds' allowance for the clocks.
    const claims = verifyTopUpGrant(key, req.grant, Date.now() - 5_000);
    if (typeof claims === "string") throw new GatewayError("forbidden", `top-up refused: ${claims}`);
    if (claims.org_id !== req.org_id || claims.amount_minor !== req.amount_minor || claims.idempotency_key !== req.idempotency_key) {
      throw new GatewayError("forbidden", "top-up refused: the grant names another organization, amount or idempotency key");
    }
    return credit(ctx, req, { madeBy: `operator:${claims.by}`, grantId: claims.gid });
  };
}

/** Adds credit, idempotent on the caller's key; journals it and announces the new balance. */
async function credit(ctx: LedgerContext, req: TopUpRequest, who: { madeBy: string; grantId: string | null }): Promise<TopUpResponse> {
  if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
  if (!Number.isSafeInteger(req.amount_minor) || req.amount_minor <= 0) throw new GatewayError("invalid_request", "amount_minor must be a positive integer");
  if (!req.idempotency_key) throw new GatewayError("invalid_request", "idempotency_key is required");
  const paid = payment(req);
  const result = await ctx.db.transaction().execute(async (trx) => {
    const id = newId("top");
    const inserted = await sql<TopUpRow>`
        INSERT INTO top_ups (id, org_id, amount_minor, idempotency_key, made_by, grant_id, paid_amount_minor, paid_currency, payment_reference, invoice_reference)
        VALUES (${id}, ${req.org_id}, ${req.amount_minor}, ${req.idempotency_key}, ${who.madeBy}, ${who.grantId}, ${paid.amount}, ${paid.currency}, ${paid.payment}, ${paid.invoice})
        ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`.execute(trx);
    if (inserted.rows.length === 0) {
      const prior = await trx.selectFrom("top_ups").selectAll().where("idempotency_key", "=", req.idempotency_key).executeTakeFirstOrThrow();
      if (prior.org_id !== req.org_id || prior.amount_minor !== req.amount_minor || (paid.payment !== null && (prior.payment_reference ?? null) !== paid.payment)) {
        throw new GatewayError("already_exists", `idempotency key '${req.idempotency_key}' was used for a different top-up`);
      }
      const a = await trx.selectFrom("accounts").selectAll().where("org_id", "=", req.org_id).executeTakeFirst();
      return { top_up_id: prior.id, duplicate: true, credits: toCredits(req.org_id, a, await monthSpent(trx, req.org_id)) };
    }
    await lockAccount(trx, req.org_id);
    const a = await sql<Account>`
        UPDATE accounts SET balance_minor = balance_minor + ${req.amount_minor}, topped_up_minor = topped_up_minor + ${req.amount_minor}, updated_at = now()
        WHERE org_id = ${req.org_id} RETURNING *`.execute(trx);
    await trx
      .insertInto("journal_entries")
      .values([
        { txn_id: id, kind: "top_up", account: "system:funding", amount_minor: -req.amount_minor },
        { txn_id: id, kind: "top_up", account: `org:${req.org_id}`, amount_minor: req.amount_minor },
      ])
      .execute();
    return { top_up_id: id, duplicate: false, credits: toCredits(req.org_id, a.rows[0], await monthSpent(trx, req.org_id)) };
  });
  if (!result.duplicate) {
    ctx.metrics.topUps.inc();
    // Announced through the outbox (trial unlocks and billing consumers rely on it).
    ctx.onTopUp?.(req.org_id);
  }
  return result;
}

/**
 * What the customer paid for a top-up (docs/billing.md, "Commercial metadata"): an amount in the
 * currency's minor units with its ISO 4217 code, and the payment's and invoice's references; each
 * optional, NULL when not stated.
 */
function payment(req: TopUpRequest): { amount: number | null; currency: string | null; payment: string | null; invoice: string | null } {
  const amount = req.paid_amount_minor ?? 0;
  if (!Number.isSafeInteger(amount) || amount < 0) throw new GatewayError("invalid_request", "paid_amount_minor must be a non-negative integer (the currency's minor units)");
  if (amount > 0 && !req.paid_currency) throw new GatewayError("invalid_request", "paid_currency is required with paid_amount_minor");
  const currency = req.paid_currency ? checkCurrency(req.paid_currency) : null;
  return {
    amount: amount > 0 ? amount : null,
    currency,
    payment: req.payment_reference ? text(req.payment_reference, "payment_reference", 200) : null,
    invoice: req.invoice_reference ? text(req.invoice_reference, "invoice_reference", 200) : null,
  };
}
