import { GatewayError } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import type { Adjustment, AdjustmentResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { AdjustmentKind, AdjustmentRow, LedgerDb } from "../db/schema.js";
import { lockAccount, monthSpent, toCredits } from "../accounts.js";
import { newId } from "../ids.js";

/**
 * Each kind's effect on the account and its journal transaction (docs/billing.md, "Adjustments"):
 * the account columns it adds to, and the pair of journal accounts it moves money between (the
 * organization's, then the system's). A credit limit moves no money.
 */
const EFFECTS: Record<AdjustmentKind, { sign: 1 | -1; columns: string[]; journal?: [string, string] }> = {
  refund: { sign: 1, columns: ["adjusted_minor"], journal: ["org", "system:refunds"] },
  credit_note: { sign: 1, columns: ["adjusted_minor"], journal: ["org", "system:credit_notes"] },
  promo_grant: { sign: 1, columns: ["promo_minor", "promo_granted_minor"], journal: ["promo", "system:promotions"] },
  promo_expiry: { sign: -1, columns: ["promo_minor", "promo_expired_minor"], journal: ["promo", "system:promotions"] },
  credit_limit: { sign: 1, columns: [] },
};

/** What an adjustment is, before it is written. */
export interface AdjustmentInput {
  orgId: string;
  kind: AdjustmentKind;
  amount: number;
  period: string;
  madeBy: string;
  reason: string;
  reference?: string;
  requestId?: string;
  grantId?: string;
  expiresAt?: Date;
  idempotencyKey: string | null;
}

/** The wire form of an adjustment. */
export function toAdjustment(a: AdjustmentRow): Adjustment {
  return {
    adjustment_id: a.id,
    org_id: a.org_id,
    kind: a.kind,
    amount_minor: Number(a.amount_minor),
    request_id: a.request_id ?? "",
    period: a.period,
    reason: a.reason,
    reference: a.reference,
    made_by: a.made_by,
    created_at_ms: a.created_at.getTime(),
    expires_at_ms: a.expires_at?.getTime() ?? 0,
    expired_minor: Number(a.expired_minor),
    grant_id: a.grant_id ?? "",
    seq: Number(a.feed_seq ?? 0),
  };
}

/** Who made an adjustment through the admin token: `admin:<operator>` (the operator is required). */
export function madeBy(operator: string): string {
  const who = operator.trim();
  if (!who) throw new GatewayError("invalid_request", "operator is required: who decided this adjustment (a name or an email)");
  if (who.length > 200 || /\p{Cc}/u.test(who)) throw new GatewayError("invalid_request", "operator must be at most 200 characters without control characters");
  return `admin:${who}`;
}

/** A text field of an adjustment: at most `max` characters without control characters but newlines. */
export function text(value: string, field: string, max = 1_000, required = false): string {
  if (required && !value.trim()) throw new GatewayError("invalid_request", `${field} is required`);
  if (value.length > max || [...value].some((c) => c !== "\n" && /\p{Cc}/u.test(c))) throw new GatewayError("invalid_request", `${field} must be at most ${max} characters without control characters`);
  return value;
}

/** A positive amount in minor units. */
export function positive(amount: number, field = "amount_minor"): number {
  if (!Number.isSafeInteger(amount) || amount <= 0) throw new GatewayError("invalid_request", `${field} must be a positive integer (minor units)`);
  return amount;
}

export function idempotencyKey(key: string, required = true): string | null {
  if (!key) {
    if (required) throw new GatewayError("invalid_request", "idempotency_key is required");
    return null;
  }
  if (key.length > 200) throw new GatewayError("invalid_request", "idempotency_key must be at most 200 characters");
  return key;
}

/**
 * Writes an adjustment, its effect on the account and its journal transaction in `trx` (the caller's
 * transaction, which may have checked things under locks of its own first). Lock order, as a
 * top-up's: the adjustment's row (its idempotency key), then the account. The row's insert draws its
 * feed number (the trigger). Returns the row, or the prior one when its key was used before (then
 * nothing is written; `same` says whether the earlier request was this one: otherwise already_exists).
 */
export async function writeAdjustment(trx: Kysely<LedgerDb>, input: AdjustmentInput, same: (prior: AdjustmentRow) => boolean): Promise<{ row: AdjustmentRow; duplicate: boolean }> {
  const id = newId("adj");
  const inserted = await sql<AdjustmentRow>`
    INSERT INTO adjustments (id, org_id, kind, amount_minor, request_id, grant_id, period, reason, reference, made_by, expires_at, idempotency_key)
    VALUES (${id}, ${input.orgId}, ${input.kind}, ${input.amount}, ${input.requestId ?? null}, ${input.grantId ?? null}, ${input.period}, ${input.reason},
      ${input.reference ?? ""}, ${input.madeBy}, ${input.expiresAt ?? null}, ${input.idempotencyKey})
    ON CONFLICT (idempotency_key) DO NOTHING RETURNING *`.execute(trx);
  const row = inserted.rows[0];
  if (!row) {
    const prior = await trx.selectFrom("adjustments").selectAll().where("idempotency_key", "=", input.idempotencyKey).executeTakeFirstOrThrow();
    if (!same(prior)) throw new GatewayError("already_exists", `idempotency key '${input.idempotencyKey}' was used for a different adjustment (${prior.kind} ${prior.id})`);
    return { row: prior, duplicate: true };
  }
  await lockAccount(trx, input.orgId);
  const effect = EFFECTS[input.kind];
  const delta = effect.sign * input.amount;
  if (input.kind === "credit_limit") {
    await sql`UPDATE accounts SET credit_limit_minor = ${input.amount}, updated_at = now() WHERE org_id = ${input.orgId}`.execute(trx);
  } else {
    const sets = effect.columns.map((c) => sql`${sql.id(c)} = ${sql.id(c)} + ${c === "promo_minor" ? delta : input.amount}`);
    await sql`UPDATE accounts SET balance_minor = balance_minor + ${delta}, ${sql.join(sets)}, updated_at = now() WHERE org_id = ${input.orgId}`.execute(trx);
  }
  if (effect.journal) {
    const [own, system] = effect.journal;
    await trx
      .insertInto("journal_entries")
      .values([
        { txn_id: id, kind: input.kind as Exclude<AdjustmentKind, "credit_limit">, account: `${own}:${input.orgId}`, amount_minor: delta },
        { txn_id: id, kind: input.kind as Exclude<AdjustmentKind, "credit_limit">, account: system, amount_minor: -delta },
      ])
      .execute();
  }
  return { row, duplicate: false };
}

/** Runs `body` in a transaction and answers as every adjustment RPC does: the adjustment, whether it was a repeat, the credits after. */
export async function adjust(ctx: LedgerContext, orgId: string, body: (trx: Kysely<LedgerDb>) => Promise<{ row: AdjustmentRow; duplicate: boolean }>): Promise<AdjustmentResponse> {
  const result = await ctx.db.transaction().execute(async (trx) => {
    const r = await body(trx);
    const a = await trx.selectFrom("accounts").selectAll().where("org_id", "=", orgId).executeTakeFirst();
    return { ...r, credits: toCredits(orgId, a, await monthSpent(trx, orgId)) };
  });
  if (!result.duplicate) {
    ctx.metrics.adjustments.inc({ kind: result.row.kind });
    // The journal outbox and the balance alerts (a credit re-arms them, an expiry may cross one).
    ctx.onTopUp?.(orgId);
  }
  return { adjustment: toAdjustment(result.row), duplicate: result.duplicate, credits: result.credits };
}
