import { sql, type Kysely, type Migration } from "@gateway/db";
import { EMPTY_HISTOGRAM_SQL, histogramOf, histogramSum, LATENCY_BOUNDS_SQL } from "../../rollups/latency.js";
import { editedApplyUsageBatch, oldTransactionsEnded } from "./apply-function.js";

/** What a success is: a record's status 2xx. Every other status counts as an error. */
const ERRORS = "count(*) FILTER (WHERE n.status NOT BETWEEN 200 AND 299)";

/** apply_usage_batch's rollup upsert gains the error count and the latency histogram of what it inserted. */
const EDITS: [string, string][] = [
  ["reasoning_tokens, absorbed_minor, budget_leases\n        ), rolled AS (", "reasoning_tokens, absorbed_minor, budget_leases, status, duration_ms\n        ), rolled AS ("],
  ["reasoning_tokens, cost_minor, absorbed_minor)\n          SELECT n.org_id", "reasoning_tokens, cost_minor, absorbed_minor, errors, latency_counts)\n          SELECT n.org_id"],
  [
    "sum(n.absorbed_minor)\n          FROM ins n\n",
    `sum(n.absorbed_minor),
            ${ERRORS}, ${histogramOf("n.latency_bucket")}
          FROM (SELECT ins.*, width_bucket(ins.duration_ms, ${LATENCY_BOUNDS_SQL}) AS latency_bucket FROM ins) n
`,
  ],
  [
    "absorbed_minor = u.absorbed_minor + EXCLUDED.absorbed_minor\n        )\n",
    `absorbed_minor = u.absorbed_minor + EXCLUDED.absorbed_minor,
            errors = u.errors + EXCLUDED.errors,
            latency_counts = ${histogramSum("u.latency_counts", "EXCLUDED.latency_counts")}
        )
`,
  ],
];

/** The backfill's step: a day of hours per transaction. */
const STEP_MS = 24 * 3_600_000;
/** An index on the rollups' hour for the backfill's ranges, dropped at its end (the rollups' key leads with the organization). */
const HOUR_INDEX = "usage_rollups_hour_backfill";

/**
 * The hourly rollups carry what the console's error, latency and cache-hit charts need
 * (docs/console.md, "The data the console reads"): `errors`, the records whose status is not a
 * success (not 2xx), and `latency_counts`, a histogram of their duration_ms over fixed log-spaced
 * bounds (src/rollups/latency.ts) from which a p95 is read across any rows. Cache hits need nothing
 * new (`cached_input_tokens` of `input_tokens`). apply_usage_batch adds both to its upsert, in the
 * same statement as before (docs/performance.md, "Errors and latency in the rollups").
 *
 * Run outside a transaction, in steps that each check whether they are done (a migrate stopped
 * part-way resumes; the backfill sets the counts, so doing it again changes nothing):
 * 1. One transaction adds the columns (a constant default: no rewrite) and replaces the function.
 * 2. It waits until every transaction that could still run the function as it was has ended: from
 *    then on every applied record is counted.
 * 3. The rollups that existed are counted again from their records, a day of hours per transaction,
 *    through an index on the hour built for it (CONCURRENTLY) and dropped after: the day's rollup
 *    rows are locked first, in key order as the apply function locks them (no deadlock), and only
 *    then are their records read, so a record applied meanwhile is either in the count (committed
 *    before it) or added by its own upsert after it (which waits for the lock) — never both, never
 *    neither. Applies wait only on the rows of the day being counted. Hours whose records retention
 *    dropped keep 0 errors and an empty histogram: their charts show no errors and no latency.
 */
export const rollupErrorsLatency: Migration = {
  transaction: false,
  async up(db: Kysely<unknown>) {
    const def = await editedApplyUsageBatch(db, []);
    if (!def.includes("latency_counts")) {
      await db.transaction().execute(async (trx) => {
        await sql`ALTER TABLE usage_rollups ADD COLUMN IF NOT EXISTS errors bigint NOT NULL DEFAULT 0,
          ADD COLUMN IF NOT EXISTS latency_counts integer[] NOT NULL DEFAULT ${sql.raw(EMPTY_HISTOGRAM_SQL)}`.execute(trx);
        await sql.raw(await editedApplyUsageBatch(trx, EDITS)).execute(trx);
      });
    }
    await oldTransactionsEnded(db);
    const span = (await sql<{ first: Date | null; last: Date | null }>`SELECT min(hour) AS first, max(hour) AS last FROM usage_rollups`.execute(db)).rows[0];
    if (span?.first && span.last) {
      await hourIndex(db);
      for (let from = span.first.getTime(); from <= span.last.getTime(); from += STEP_MS) await countDay(db, new Date(from), new Date(from + STEP_MS));
    }
    await sql`DROP INDEX CONCURRENTLY IF EXISTS ${sql.id(HOUR_INDEX)}`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.transaction().execute(async (trx) => {
      await sql
        .raw(
          await editedApplyUsageBatch(
            trx,
            EDITS.map(([from, to]) => [to, from]),
          ),
        )
        .execute(trx);
      await sql`ALTER TABLE usage_rollups DROP COLUMN errors, DROP COLUMN latency_counts`.execute(trx);
    });
  },
};

/** The backfill's index on the hour (an invalid one a stopped build left is built again). */
async function hourIndex(db: Kysely<unknown>): Promise<void> {
  const index = await sql<{
    valid: boolean;
  }>`SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ${HOUR_INDEX} AND c.relnamespace = current_schema()::regnamespace`.execute(db);
  if (index.rows[0]?.valid) return;
  if (index.rows.length > 0) await sql`DROP INDEX CONCURRENTLY ${sql.id(HOUR_INDEX)}`.execute(db);
  await sql`CREATE INDEX CONCURRENTLY ${sql.id(HOUR_INDEX)} ON usage_rollups (hour)`.execute(db);
}

/** The errors and histograms of the rollups of [start, end), counted from their records. */
async function countDay(db: Kysely<unknown>, start: Date, end: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await sql`SELECT 1 FROM usage_rollups WHERE hour >= ${start} AND hour < ${end} ORDER BY org_id, hour, key_id, model FOR UPDATE`.execute(trx);
    await sql`
      UPDATE usage_rollups u SET errors = r.errors, latency_counts = r.latency_counts
      FROM (
        SELECT n.org_id, date_trunc('hour', n.created_at, 'UTC') AS hour, n.key_id, n.model, ${sql.raw(ERRORS)} AS errors, ${sql.raw(histogramOf("n.latency_bucket"))} AS latency_counts
        FROM (SELECT org_id, created_at, key_id, model, status, width_bucket(duration_ms, ${sql.raw(LATENCY_BOUNDS_SQL)}) AS latency_bucket
              FROM usage_records WHERE created_at >= ${start} AND created_at < ${end}) n
        GROUP BY 1, 2, 3, 4
      ) r
      WHERE u.hour >= ${start} AND u.hour < ${end} AND u.org_id = r.org_id AND u.hour = r.hour AND u.key_id = r.key_id AND u.model = r.model
        AND (u.errors, u.latency_counts) IS DISTINCT FROM (r.errors, r.latency_counts)`.execute(trx);
  });
}
