import { sql, type Kysely } from "@gateway/db";
import type { UsageEventV1 } from "@gateway/events";
import type { LedgerDb, LeaseRow } from "../db/schema.js";
import { lockAccount } from "../accounts.js";

/**
 * Applies one usage event in one transaction: the usage record (primary key = request id, so a
 * duplicate inserts nothing and changes nothing), the debit, the lease's hold, the journal.
 * Returns false for a duplicate.
 */
export async function applyUsage(db: Kysely<LedgerDb>, ev: UsageEventV1): Promise<boolean> {
  return db.transaction().execute(async (trx) => {
    const inserted = await trx
      .insertInto("usage_records")
      .values({
        request_id: ev.request_id,
        org_id: ev.org_id,
        key_id: ev.key_id,
        model: ev.model,
        route: ev.route,
        provider: ev.provider,
        upstream_model: ev.upstream_model,
        lease_id: ev.lease_id,
        input_tokens: ev.usage.input_tokens,
        output_tokens: ev.usage.output_tokens,
        cached_input_tokens: ev.usage.cached_input_tokens,
        estimated: ev.usage.estimated,
        cost_minor: ev.cost_minor,
        input_price_minor_per_mtok: ev.input_price_minor_per_mtok,
        output_price_minor_per_mtok: ev.output_price_minor_per_mtok,
        stream: ev.stream,
        status: ev.status,
        duration_ms: ev.duration_ms,
        line_items: JSON.stringify(ev.line_items),
        guardrails: JSON.stringify(ev.guardrails),
        created_at: new Date(ev.created_at_ms),
      })
      .onConflict((oc) => oc.column("request_id").doNothing())
      .returning("request_id")
      .executeTakeFirst();
    if (!inserted) return false;

    // Lock order everywhere: account, then lease.
    await lockAccount(trx, ev.org_id);
    let releasedFromHold = 0;
    if (ev.lease_id) {
      const lease = (await sql<LeaseRow>`SELECT * FROM leases WHERE id = ${ev.lease_id} AND org_id = ${ev.org_id} FOR UPDATE`.execute(trx)).rows[0];
      if (lease) {
        releasedFromHold = Math.min(ev.cost_minor, lease.remaining_minor);
        await sql`UPDATE leases SET remaining_minor = remaining_minor - ${releasedFromHold}, applied_minor = applied_minor + ${ev.cost_minor} WHERE id = ${lease.id}`.execute(trx);
      }
    }
    await sql`
      UPDATE accounts SET balance_minor = balance_minor - ${ev.cost_minor}, spent_minor = spent_minor + ${ev.cost_minor},
        held_minor = GREATEST(0, held_minor - ${releasedFromHold}), updated_at = now()
      WHERE org_id = ${ev.org_id}`.execute(trx);
    if (ev.cost_minor > 0) {
      await sql`
        INSERT INTO monthly_spend (org_id, month, spent_minor)
        VALUES (${ev.org_id}, date_trunc('month', ${new Date(ev.created_at_ms)}::timestamptz AT TIME ZONE 'UTC')::date, ${ev.cost_minor})
        ON CONFLICT (org_id, month) DO UPDATE SET spent_minor = monthly_spend.spent_minor + EXCLUDED.spent_minor`.execute(trx);
      await trx
        .insertInto("journal_entries")
        .values([
          { txn_id: ev.request_id, kind: "usage", account: `org:${ev.org_id}`, amount_minor: -ev.cost_minor },
          { txn_id: ev.request_id, kind: "usage", account: "system:revenue", amount_minor: ev.cost_minor },
        ])
        .execute();
    }
    return true;
  });
}
