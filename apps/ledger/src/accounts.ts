import { sql, type Kysely } from "@gateway/db";
import type { Credits } from "@gateway/proto";
import type { Account, LedgerDb } from "./db/schema.js";

/** Locks the org's account row for this transaction, creating it at zero first if needed. */
export async function lockAccount(trx: Kysely<LedgerDb>, orgId: string): Promise<Account> {
  await sql`INSERT INTO accounts (org_id) VALUES (${orgId}) ON CONFLICT (org_id) DO NOTHING`.execute(trx);
  const r = await sql<Account>`SELECT * FROM accounts WHERE org_id = ${orgId} FOR UPDATE`.execute(trx);
  return r.rows[0]!;
}

/** Spend of the current calendar month (UTC), minor units. */
export async function monthSpent(db: Kysely<LedgerDb>, orgId: string): Promise<number> {
  const r = await sql<{ spent_minor: number }>`
    SELECT spent_minor FROM monthly_spend WHERE org_id = ${orgId} AND month = date_trunc('month', now() AT TIME ZONE 'UTC')::date`.execute(db);
  return r.rows[0]?.spent_minor ?? 0;
}

export function toCredits(orgId: string, a: Account | undefined, monthSpentMinor = 0): Credits {
  return {
    month_spent_minor: monthSpentMinor,
    org_id: orgId,
    balance_minor: a?.balance_minor ?? 0,
    spent_minor: a?.spent_minor ?? 0,
    held_minor: a?.held_minor ?? 0,
    topped_up_minor: a?.topped_up_minor ?? 0,
    promo_minor: a?.promo_minor ?? 0,
    credit_limit_minor: a?.credit_limit_minor ?? 0,
    adjusted_minor: a?.adjusted_minor ?? 0,
  };
}

/** Lowers an account's held credit (never below zero). */
export async function releaseHeld(trx: Kysely<LedgerDb>, orgId: string, amount: number): Promise<void> {
  if (amount <= 0) return;
  await sql`UPDATE accounts SET held_minor = GREATEST(0, held_minor - ${amount}), updated_at = now() WHERE org_id = ${orgId}`.execute(trx);
}
