import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch } from "./apply-function.js";

/** The three places apply_usage_batch names a record's columns: the insert, the select, the record type. */
const EDITS: [string, string][] = [
  ["budget_leases, feed_seq)\n", "budget_leases, feed_seq, service_tier)\n"],
  ["r.budget_leases, v_feed + row_number() OVER (ORDER BY r.request_id) - 1\n", "r.budget_leases, v_feed + row_number() OVER (ORDER BY r.request_id) - 1, r.service_tier\n"],
  ["tags text[], budget_leases text[])", "tags text[], budget_leases text[], service_tier text)"],
];

/**
 * Usage records keep the provider's service tier of the served attempt (UsageEventV1 service_tier:
 * OpenAI's default / flex / priority, Anthropic's standard / priority), for reconciling with the
 * provider's bill (docs/billing.md, "Reconciliation"); NULL when the provider said none. The other
 * attempts carry theirs, and their whole token split, in the attempts array. A nullable column: no
 * rewrite of the partitions; apply_usage_batch stores it, edited in place (a ledger of the previous
 * release calling it sends none: jsonb_to_recordset reads NULL).
 */
export const attemptSplit: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`ALTER TABLE usage_records ADD COLUMN service_tier text`.execute(db);
    await sql.raw(await editedApplyUsageBatch(db, EDITS)).execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql
      .raw(
        await editedApplyUsageBatch(
          db,
          EDITS.map(([from, to]) => [to, from]),
        ),
      )
      .execute(db);
    await sql`ALTER TABLE usage_records DROP COLUMN service_tier`.execute(db);
  },
};
