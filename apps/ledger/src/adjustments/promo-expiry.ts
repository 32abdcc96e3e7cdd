import { sql, type Kysely } from "@gateway/db";
import type { LedgerContext } from "../context.js";
import type { Account, AdjustmentRow, LedgerDb } from "../db/schema.js";
import { newId } from "../ids.js";
import { monthIn, termsOfOrg } from "../billing/terms.js";

/** Organizations with a grant due, per pass. */
const ORGS_PER_PASS = 100;

/** What an expiring grant has left: its share of the promotional balance, grants drawn in expiry order. */
export function unspentOf(grants: Pick<AdjustmentRow, "id" | "amount_minor" | "expired_minor">[], drawn: number): Map<string, number> {
  // Usage draws the promotional balance as a whole; it is attributed to grants soonest-expiring first,
  // each up to what expiry has not already removed of it.
  const left = new Map<string, number>();
  let toAllot = Math.max(0, drawn);
  for (const g of grants) {
    const capacity = Number(g.amount_minor) - Number(g.expired_minor);
    const taken = Math.min(capacity, toAllot);
    toAllot -= taken;
    left.set(g.id, capacity - taken);
  }
  return left;
}

/**
 * Removes what is left of promotional grants past their expiry (docs/billing.md, "Adjustments"):
 * each grant's unspent share (usage draws grants soonest-expiring first), but never more than the
 * balance has free of holds, so an expiry never takes credit a request in flight was admitted on.
 * What holds cover stays, and a later pass removes it once they settle; a grant is settled once
 * nothing is left of it. Each removal is an adjustment (promo_expiry) with its journal transaction
 * (promo:<id> / system:promotions). One transaction per organization, its account locked first
 * (SKIP LOCKED: a busy account is taken by the next pass), so several ledgers expire safely.
 */
export async function expirePromoCredit(ctx: LedgerContext): Promise<number> {
  const due = await sql<{ org_id: string }>`
    SELECT DISTINCT org_id FROM (
      SELECT org_id FROM adjustments WHERE kind = 'promo_grant' AND NOT settled AND expires_at <= now() ORDER BY expires_at LIMIT ${ORGS_PER_PASS}
    ) d`.execute(ctx.db);
  let removed = 0;
  for (const { org_id } of due.rows) {
    const tz = (await termsOfOrg(ctx.db, org_id)).timeZone;
    const made = await ctx.db.transaction().execute((trx) => expireOrg(trx, org_id, tz));
    if (made > 0) {
      removed += made;
      ctx.metrics.adjustments.inc({ kind: "promo_expiry" });
      ctx.onTopUp?.(org_id);
    }
  }
  return removed;
}

async function expireOrg(trx: Kysely<LedgerDb>, orgId: string, timeZone: string): Promise<number> {
  const acc = await sql<Account>`SELECT * FROM accounts WHERE org_id = ${orgId} FOR UPDATE SKIP LOCKED`.execute(trx);
  const account = acc.rows[0];
  if (!account) return 0;
  const grants = await sql<AdjustmentRow>`
    SELECT * FROM adjustments WHERE org_id = ${orgId} AND kind = 'promo_grant'
    ORDER BY expires_at NULLS LAST, created_at, id FOR UPDATE`.execute(trx);
  const drawn = Number(account.promo_granted_minor) - Number(account.promo_expired_minor) - Number(account.promo_minor);
  const unspent = unspentOf(grants.rows, drawn);
  let free = Math.max(0, Number(account.balance_minor) - Number(account.held_minor));
  let removed = 0;
  for (const g of grants.rows) {
    if (g.settled || !g.expires_at || g.expires_at.getTime() > Date.now()) continue;
    const left = unspent.get(g.id) ?? 0;
    const amount = Math.min(left, free);
    if (amount > 0) {
      const id = newId("adj");
      await sql`
        INSERT INTO adjustments (id, org_id, kind, amount_minor, grant_id, period, reason, made_by)
        VALUES (${id}, ${orgId}, 'promo_expiry', ${amount}, ${g.id}, ${monthIn(new Date(), timeZone)}, ${`promotional credit ${g.id} expired`}, 'ledger')`.execute(trx);
      await sql`
        UPDATE accounts SET balance_minor = balance_minor - ${amount}, promo_minor = promo_minor - ${amount},
          promo_expired_minor = promo_expired_minor + ${amount}, updated_at = now() WHERE org_id = ${orgId}`.execute(trx);
      await trx
        .insertInto("journal_entries")
        .values([
          { txn_id: id, kind: "promo_expiry", account: `promo:${orgId}`, amount_minor: -amount },
          { txn_id: id, kind: "promo_expiry", account: "system:promotions", amount_minor: amount },
        ])
        .execute();
      free -= amount;
      removed++;
    }
    await sql`UPDATE adjustments SET expired_minor = expired_minor + ${amount}, settled = ${left - amount === 0} WHERE id = ${g.id}`.execute(trx);
  }
  return removed;
}
