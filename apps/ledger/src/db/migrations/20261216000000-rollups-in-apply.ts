import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch, oldTransactionsEnded } from "./apply-function.js";

/** The upsert of the hourly rollups of the usage rows in `from` (the insert's returned rows, or a trigger's transition table), in key order. */
function rollupUpsert(from: string): string {
  return `INSERT INTO usage_rollups AS u (org_id, hour, key_id, model, requests, input_tokens, output_tokens, cached_input_tokens,
            cache_creation_input_tokens, reasoning_tokens, cost_minor, absorbed_minor)
          SELECT n.org_id, date_trunc('hour', n.created_at, 'UTC'), n.key_id, n.model, count(*), sum(n.input_tokens), sum(n.output_tokens),
            sum(n.cached_input_tokens), sum(n.cache_creation_input_tokens), sum(n.reasoning_tokens), sum(n.cost_minor), sum(n.absorbed_minor)
          FROM ${from} n
          GROUP BY 1, 2, 3, 4
          ORDER BY 1, 2, 3, 4
          ON CONFLICT (org_id, hour, key_id, model) DO UPDATE SET
            requests = u.requests + EXCLUDED.requests,
            input_tokens = u.input_tokens + EXCLUDED.input_tokens,
            output_tokens = u.output_tokens + EXCLUDED.output_tokens,
            cached_input_tokens = u.cached_input_tokens + EXCLUDED.cached_input_tokens,
            cache_creation_input_tokens = u.cache_creation_input_tokens + EXCLUDED.cache_creation_input_tokens,
            reasoning_tokens = u.reasoning_tokens + EXCLUDED.reasoning_tokens,
            cost_minor = u.cost_minor + EXCLUDED.cost_minor,
            absorbed_minor = u.absorbed_minor + EXCLUDED.absorbed_minor`;
}

/** What the records' insert returns: enough to roll them up as well. */
const RETURNS: [string, string] = [
  "          RETURNING request_id, org_id, lease_id, cost_minor, created_at\n        )\n",
  `          RETURNING request_id, org_id, lease_id, cost_minor, created_at, key_id, model, input_tokens, output_tokens, cached_input_tokens,
            cache_creation_input_tokens, reasoning_tokens, absorbed_minor
        ), rolled AS (
          -- 1b. The hourly rollups of what was inserted, in key order (the trigger of 20261201000000 before).
          ${rollupUpsert("ins")}
        )
`,
];

/** The function says, for its transaction, that it rolls up its records itself (the trigger then does not). */
const SAYS_SO: [string, string] = ["      BEGIN\n        posted := false;\n", "      BEGIN\n        posted := false;\n        PERFORM set_config('ledger.rollups_in_apply', 'on', true);\n"];

/**
 * The hourly rollups written by apply_usage_batch itself, from the rows its insert returns, in place
 * of the statement-level trigger on usage_records (20261201000000-usage-rollups): the trigger kept
 * a transition table of every inserted row, whole, only to sum eight of its columns (the trigger
 * with its upserts measured ~5–7 µs of Postgres per event: docs/performance.md, "The ledger kept
 * for years"). The rollups stay
 * exactly the records summed: they change in the same statement as the records, in the same lock
 * order (records, rollups in key order, monthly spend, accounts, leases). Only apply_usage_batch
 * writes usage records.
 *
 * Without a moment where a batch is rolled up twice or not at all, while ledgers apply (a call that
 * began before the function was replaced runs to its end as it was, and would then find no trigger):
 * 1. One transaction replaces the function (it marks its transaction, `ledger.rollups_in_apply`)
 *    and the trigger's function (it does nothing in a transaction so marked).
 * 2. The migration waits until every transaction of this database that began before that commit
 *    has ended: each later call runs the new function.
 * 3. The trigger is dropped.
 * Each step checks whether it is done, so a migrate stopped part-way resumes.
 */
export const rollupsInApply: Migration = {
  transaction: false,
  async up(db: Kysely<unknown>) {
    const def = await editedApplyUsageBatch(db, []);
    if (!def.includes("rollups_in_apply")) {
      await db.transaction().execute(async (trx) => {
        await sql.raw(await editedApplyUsageBatch(trx, [SAYS_SO, RETURNS])).execute(trx);
        await sql`
          CREATE OR REPLACE FUNCTION roll_up_usage() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
          BEGIN
            IF current_setting('ledger.rollups_in_apply', true) = 'on' THEN
              RETURN NULL;
            END IF;
            ${sql.raw(rollupUpsert("new_rows"))};
            RETURN NULL;
          END
          $fn$`.execute(trx);
      });
    }
    const trigger = await sql`SELECT 1 FROM pg_trigger WHERE tgname = 'usage_records_roll_up' AND tgrelid = 'usage_records'::regclass`.execute(db);
    if (trigger.rows.length === 0) return;
    await oldTransactionsEnded(db);
    await sql`DROP TRIGGER usage_records_roll_up ON usage_records`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.transaction().execute(async (trx) => {
      await sql
        .raw(
          await editedApplyUsageBatch(trx, [
            [SAYS_SO[1], SAYS_SO[0]],
            [RETURNS[1], RETURNS[0]],
          ]),
        )
        .execute(trx);
      await sql`CREATE TRIGGER usage_records_roll_up AFTER INSERT ON usage_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION roll_up_usage()`.execute(trx);
    });
  },
};
