import { sql, type Kysely, type Migration } from "@gateway/db";
import { rollupModelOf } from "../../rollups/refusals.js";
import { oldTransactionsEnded } from "./apply-function.js";

/** What a success is, as apply_usage_batch counts errors: a status 2xx (a refusal is a 4xx). */
const ERRORS = (r: string) => `count(*) FILTER (WHERE ${r}.status NOT BETWEEN 200 AND 299)`;

/**
 * apply_refusals as 20261223000000-refusal-records made it (`rolled` false), or rolling up what it
 * stores: the records it inserted (never a duplicate delivery) upserted into their hourly rollups,
 * a request and an error each, in key order as apply_usage_batch locks them (dedup, records, then
 * rollups: two applies at once never deadlock), in the same statement.
 */
function applyRefusals(rolled: boolean): string {
  const only = (text: string) => (rolled ? text : "");
  return `
    CREATE OR REPLACE FUNCTION apply_refusals(p_records jsonb) RETURNS text[] LANGUAGE sql SET search_path FROM CURRENT AS $fn$
      WITH r AS (
        SELECT DISTINCT ON (d.request_id) d.* FROM jsonb_to_recordset(p_records) AS d(request_id text, org_id text, key_id text, model text,
          route text, status integer, error_code text, error_message text, stream boolean, created_at_ms bigint, duration_ms integer${only(", model_resolved boolean")})
        ORDER BY d.request_id
      ), fresh AS (
        INSERT INTO usage_dedup (request_id, created_at)
        SELECT r.request_id, to_timestamp(r.created_at_ms / 1000.0) FROM r ORDER BY r.request_id
        ON CONFLICT (request_id) DO NOTHING
        RETURNING request_id
      ), ins AS (
        INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
          cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms,
          created_at, provider_cost_minor, absorbed_minor, error_code, error_message${only(", model_resolved")})
        SELECT r.request_id, r.org_id, r.key_id, r.model, r.route, '', '', '', 0, 0, 0, false, 0, 0, 0, r.stream, r.status, r.duration_ms,
          to_timestamp(r.created_at_ms / 1000.0), 0, 0, r.error_code, r.error_message${only(", r.model_resolved")}
        FROM r WHERE r.request_id IN (SELECT fresh.request_id FROM fresh)
        ORDER BY r.request_id
        RETURNING request_id${only(", org_id, created_at, key_id, model, status, error_code, model_resolved")}
      )${only(`, rolled AS (
        INSERT INTO usage_rollups AS u (org_id, hour, key_id, model, requests, input_tokens, output_tokens, cached_input_tokens,
          cache_creation_input_tokens, reasoning_tokens, cost_minor, absorbed_minor, errors)
        SELECT n.org_id, date_trunc('hour', n.created_at, 'UTC'), n.key_id, ${rollupModelOf("n")}, count(*), 0, 0, 0, 0, 0, 0, 0, ${ERRORS("n")}
        FROM ins n
        GROUP BY 1, 2, 3, 4
        ORDER BY 1, 2, 3, 4
        ON CONFLICT (org_id, hour, key_id, model) DO UPDATE SET requests = u.requests + EXCLUDED.requests, errors = u.errors + EXCLUDED.errors
      )`)}
      SELECT coalesce(array_agg(ins.request_id), '{}') FROM ins
    $fn$`;
}

const DAY_MS = 24 * 3_600_000;
/**
 * How far before refusal records began one can have been received: a record is stored at most the
 * deduplication horizon (LEDGER_DEDUP_HORIZON, at most 31 days) after its request, and none was
 * stored before 20261223000000-refusal-records ran; a day more for the clocks.
 */
const BEFORE_FIRST_MS = 32 * DAY_MS;

/**
 * Refusal records in the hourly rollups (docs/billing.md, "Refusal records"; docs/console.md, "The
 * data the console reads"): apply_refusals upserts each stored refusal's rollup row — requests + 1,
 * errors + 1, nothing in tokens, cost or the latency histogram (a refusal reached no provider) —
 * under its model when the data-plane had resolved it (`model_resolved`, a new nullable column of
 * usage_records: no rewrite, NULL on every billed record and on refusals stored before it), under
 * UNRESOLVED_MODEL otherwise (src/rollups/refusals.ts). apply_usage_batch is not changed.
 *
 * Run outside a transaction, in steps that each check whether they are done (a migrate stopped
 * part-way resumes; the count sets the figures, so doing it again changes nothing), as
 * 20261222000000-rollup-errors-latency did:
 * 1. One transaction adds the column and replaces the function.
 * 2. It waits until every transaction that could still run the function as it was has ended: from
 *    then on every stored refusal is rolled up by its own statement.
 * 3. The refusals stored before are counted in, a day at a time (the days with refusal records, read
 *    from the partitions that can hold them): the day's rollup rows of its refusals are locked in
 *    key order (made, at 0, where missing), and only then are their requests and errors counted from
 *    the records, so a refusal stored meanwhile is either in the count or added by its own upsert
 *    after it (which waits for the lock) — never both, never neither.
 */
export const refusalRollups: Migration = {
  transaction: false,
  async up(db: Kysely<unknown>) {
    const def = (await sql<{ def: string }>`SELECT pg_get_functiondef('apply_refusals(jsonb)'::regprocedure) AS def`.execute(db)).rows[0]!.def;
    if (!def.includes("usage_rollups")) {
      await db.transaction().execute(async (trx) => {
        await sql`ALTER TABLE usage_records ADD COLUMN IF NOT EXISTS model_resolved boolean`.execute(trx);
        await sql.raw(applyRefusals(true)).execute(trx);
      });
    }
    await oldTransactionsEnded(db);
    for (const day of await refusalDays(db)) await countDay(db, day, new Date(day.getTime() + DAY_MS));
  },
  async down(db: Kysely<unknown>) {
    await db.transaction().execute(async (trx) => {
      await sql.raw(applyRefusals(false)).execute(trx);
      // The refusals' counts taken out again, and the rows only refusals made.
      await sql`
        UPDATE usage_rollups u SET requests = u.requests - c.requests, errors = u.errors - c.errors
        FROM (SELECT x.org_id, date_trunc('hour', x.created_at, 'UTC') AS hour, x.key_id, ${sql.raw(rollupModelOf("x"))} AS model,
                count(*) AS requests, ${sql.raw(ERRORS("x"))} AS errors
              FROM usage_records x WHERE x.error_code IS NOT NULL GROUP BY 1, 2, 3, 4) c
        WHERE (u.org_id, u.hour, u.key_id, u.model) = (c.org_id, c.hour, c.key_id, c.model)`.execute(trx);
      await sql`DELETE FROM usage_rollups WHERE requests = 0`.execute(trx);
      await sql`ALTER TABLE usage_records DROP COLUMN model_resolved`.execute(trx);
    });
  },
};

/** The UTC days holding refusal records, from the partitions that can hold them. */
async function refusalDays(db: Kysely<unknown>): Promise<Date[]> {
  const began = await sql<{ at: string }>`SELECT timestamp AS at FROM kysely_migration WHERE name = '20261223000000-refusal-records'`.execute(db);
  const from = began.rows[0] ? new Date(new Date(began.rows[0].at).getTime() - BEFORE_FIRST_MS) : new Date(0);
  const days = await sql<{ day: Date }>`
    SELECT DISTINCT date_trunc('day', created_at, 'UTC') AS day FROM usage_records WHERE created_at >= ${from} AND error_code IS NOT NULL ORDER BY 1`.execute(db);
  return days.rows.map((d) => d.day);
}

/** The requests and errors of the rollup rows of [start, end) that hold refusal records, counted from their records. */
async function countDay(db: Kysely<unknown>, start: Date, end: Date): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const locked = await sql<{ org_id: string; hour: Date; key_id: string; model: string }>`
      INSERT INTO usage_rollups AS u (org_id, hour, key_id, model, requests, input_tokens, output_tokens, cached_input_tokens,
        cache_creation_input_tokens, reasoning_tokens, cost_minor, absorbed_minor)
      SELECT DISTINCT x.org_id, date_trunc('hour', x.created_at, 'UTC'), x.key_id, ${sql.raw(rollupModelOf("x"))}, 0, 0, 0, 0, 0, 0, 0, 0
      FROM usage_records x WHERE x.created_at >= ${start} AND x.created_at < ${end} AND x.error_code IS NOT NULL
      ORDER BY 1, 2, 3, 4
      ON CONFLICT (org_id, hour, key_id, model) DO UPDATE SET requests = u.requests
      RETURNING u.org_id, u.hour, u.key_id, u.model`.execute(trx);
    if (locked.rows.length === 0) return;
    const k = locked.rows;
    // Only the rows locked above: another row's count read now could miss a refusal its own upsert adds meanwhile.
    await sql`
      UPDATE usage_rollups u SET requests = c.requests, errors = c.errors
      FROM unnest(${k.map((r) => r.org_id)}::text[], ${k.map((r) => r.hour)}::timestamptz[], ${k.map((r) => r.key_id)}::text[], ${k.map((r) => r.model)}::text[])
          AS l(org_id, hour, key_id, model),
        (SELECT x.org_id, date_trunc('hour', x.created_at, 'UTC') AS hour, x.key_id, ${sql.raw(rollupModelOf("x"))} AS model,
           count(*) AS requests, ${sql.raw(ERRORS("x"))} AS errors
         FROM usage_records x WHERE x.created_at >= ${start} AND x.created_at < ${end} GROUP BY 1, 2, 3, 4) c
      WHERE (u.org_id, u.hour, u.key_id, u.model) = (l.org_id, l.hour, l.key_id, l.model) AND (c.org_id, c.hour, c.key_id, c.model) = (l.org_id, l.hour, l.key_id, l.model)
        AND (u.requests, u.errors) IS DISTINCT FROM (c.requests, c.errors)`.execute(trx);
  });
}
