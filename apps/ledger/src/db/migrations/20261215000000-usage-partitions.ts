import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch } from "./apply-function.js";

/** Records per batch of the deduplication backfill: one short statement each. */
const BACKFILL_BATCH = 5_000;
/** The deduplication backfill covers this much of the past (the longest LEDGER_DEDUP_HORIZON allowed). */
const BACKFILL_DAYS = 31;

/** The apply function writes each request id to usage_dedup (and still skips what the primary key holds). */
const DEDUP_WRITE: [string, string] = [
  "WITH ins AS (\n          INSERT INTO usage_records (",
  `WITH fresh AS (
          INSERT INTO usage_dedup (request_id, created_at)
          SELECT d.request_id, to_timestamp(d.created_at_ms / 1000.0) FROM jsonb_to_recordset(p_records) AS d(request_id text, created_at_ms bigint)
          ORDER BY d.request_id
          ON CONFLICT (request_id) DO NOTHING
          RETURNING request_id
        ), ins AS (
          INSERT INTO usage_records (`,
];
/** Then usage_dedup alone decides: a partitioned table has no unique index on request_id. */
const DEDUP_DECIDES: [string, string] = [
  "          ORDER BY r.request_id\n          ON CONFLICT (request_id) DO NOTHING\n",
  "          WHERE r.request_id IN (SELECT fresh.request_id FROM fresh)\n          ORDER BY r.request_id\n",
];
/** And a request id twice in one batch is one record (the primary key did that before). */
const ONE_PER_ID: [string, string] = ["          SELECT r.request_id, r.org_id, r.key_id,", "          SELECT DISTINCT ON (r.request_id) r.request_id, r.org_id, r.key_id,"];

/**
 * usage_records partitioned by month of created_at, without stopping the ledger (docs/operations.md,
 * "Usage records: partitions and retention"). Runs outside a transaction in steps that each check
 * whether they are done, so a migrate step stopped part-way resumes:
 *
 * 1. `usage_dedup` (request id → created_at), which keeps a request from being applied twice now
 *    that the primary key cannot (a partitioned table's unique index must include created_at), and
 *    `usage_partitioning`, the plan: the legacy table's upper bound (the first day of the month
 *    after next, so the current month and the next stay in it) and the backfill's progress. A
 *    migrate resumed when that bound is less than a month away plans a new one (the check below
 *    would soon refuse the live inserts).
 * 2. The apply function writes usage_dedup beside the records (the primary key still decides).
 * 3. The legacy table gets `CHECK (created_at < bound)`, added NOT VALID and validated (a validation
 *    takes no lock that stops inserts), so attaching it below needs no scan.
 * 4. usage_dedup is filled from the last 31 days of records, in batches along the primary key.
 * 5. One short transaction (at most the lock timeout of waiting): the legacy table becomes the
 *    partition [-∞, bound) of a new partitioned usage_records with the same columns, indexes and
 *    rollup trigger; the next months get partitions; the apply function lets usage_dedup decide.
 */
export const usagePartitions: Migration = {
  transaction: false,
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE IF NOT EXISTS usage_dedup (request_id text PRIMARY KEY, created_at timestamptz NOT NULL);
      CREATE INDEX IF NOT EXISTS usage_dedup_created ON usage_dedup USING brin (created_at);
      CREATE TABLE IF NOT EXISTS usage_partitioning (
        id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        legacy_bound timestamptz NOT NULL,
        backfill_after text,
        backfilled boolean NOT NULL DEFAULT false,
        retained_from timestamptz
      );
      INSERT INTO usage_partitioning (legacy_bound) VALUES ((date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months') AT TIME ZONE 'UTC')
        ON CONFLICT (id) DO NOTHING;
      ALTER TABLE dead_letters DROP CONSTRAINT IF EXISTS dead_letters_reason_check;
      ALTER TABLE dead_letters ADD CONSTRAINT dead_letters_reason_check
        CHECK (reason IN ('invalid', 'rejected', 'unsigned', 'forged', 'mispriced', 'unpriced', 'capped', 'out_of_horizon')) NOT VALID;
      -- The month partitions from the legacy table's bound (or where retention left off) to p_ahead
      -- months past the current one, each with its own request id index (the legacy table keeps its
      -- primary key); returns how many it made.
      CREATE OR REPLACE FUNCTION ensure_usage_partitions(p_ahead integer) RETURNS integer LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
      DECLARE
        v_from timestamp;
        v_until timestamp := date_trunc('month', now() AT TIME ZONE 'UTC') + make_interval(months => p_ahead + 1);
        v_name text;
        v_made integer := 0;
      BEGIN
        -- Not before what retention dropped: a dropped month is not made again.
        SELECT greatest(legacy_bound, coalesce(retained_from, legacy_bound)) AT TIME ZONE 'UTC' INTO v_from FROM usage_partitioning;
        WHILE v_from < v_until LOOP
          v_name := 'usage_records_' || to_char(v_from, 'YYYY_MM');
          IF to_regclass(v_name) IS NULL THEN
            EXECUTE format('CREATE TABLE %I PARTITION OF usage_records FOR VALUES FROM (%L) TO (%L)', v_name,
              (v_from AT TIME ZONE 'UTC')::text, ((v_from + interval '1 month') AT TIME ZONE 'UTC')::text);
            EXECUTE format('CREATE INDEX %I ON %I (request_id)', v_name || '_request', v_name);
            v_made := v_made + 1;
          END IF;
          v_from := v_from + interval '1 month';
        END LOOP;
        RETURN v_made;
      END
      $fn$;
    `.execute(db);
    if (await partitioned(db)) return;
    const def = await editedApplyUsageBatch(db, []);
    if (!def.includes("INSERT INTO usage_dedup")) await sql.raw(await editedApplyUsageBatch(db, [DEDUP_WRITE])).execute(db);

    let bound = (await sql<{ bound: Date }>`SELECT legacy_bound AS bound FROM usage_partitioning`.execute(db)).rows[0]!.bound;
    // A bound less than a month away (a migrate resumed late) is planned again, or the check would
    // soon refuse live records. An empty table keeps its plan: nothing writes to it yet (a new
    // ledger is migrated before it runs; a test plans a partitioning in the past).
    const empty = (await sql<{ empty: boolean }>`SELECT NOT EXISTS (SELECT 1 FROM usage_records) AS empty`.execute(db)).rows[0]!.empty;
    if (!empty && bound.getTime() < Date.now() + 31 * 24 * 3_600_000) {
      await sql`ALTER TABLE usage_records DROP CONSTRAINT IF EXISTS usage_records_legacy_bound`.execute(db);
      await sql`UPDATE usage_partitioning SET legacy_bound = (date_trunc('month', now() AT TIME ZONE 'UTC') + interval '2 months') AT TIME ZONE 'UTC'`.execute(db);
      bound = (await sql<{ bound: Date }>`SELECT legacy_bound AS bound FROM usage_partitioning`.execute(db)).rows[0]!.bound;
    }
    const check = await sql<{ validated: boolean }>`SELECT convalidated AS validated FROM pg_constraint WHERE conname = 'usage_records_legacy_bound' AND conrelid = 'usage_records'::regclass`.execute(
      db,
    );
    if (check.rows.length === 0) await sql`ALTER TABLE usage_records ADD CONSTRAINT usage_records_legacy_bound CHECK (created_at < ${sql.lit(bound.toISOString())}::timestamptz) NOT VALID`.execute(db);
    if (!check.rows[0]?.validated) await sql`ALTER TABLE usage_records VALIDATE CONSTRAINT usage_records_legacy_bound`.execute(db);

    await backfillDedup(db);
    await db.transaction().execute(async (trx) => {
      await sql`LOCK TABLE usage_records IN ACCESS EXCLUSIVE MODE`.execute(trx);
      await sql`
        ALTER TABLE usage_records RENAME TO usage_records_legacy;
        DROP TRIGGER usage_records_roll_up ON usage_records_legacy;
        CREATE TABLE usage_records (LIKE usage_records_legacy INCLUDING DEFAULTS) PARTITION BY RANGE (created_at);
        ALTER TABLE usage_records ADD CONSTRAINT usage_records_cost_minor_check CHECK (cost_minor >= 0);
        CREATE INDEX usage_by_org_created ON ONLY usage_records (org_id, created_at);
        CREATE INDEX usage_by_org_key_created ON ONLY usage_records (org_id, key_id, created_at);
        CREATE INDEX usage_by_org_model_created ON ONLY usage_records (org_id, model, created_at);
        ALTER TABLE usage_records ATTACH PARTITION usage_records_legacy FOR VALUES FROM (MINVALUE) TO (${sql.lit(bound.toISOString())});
        ALTER INDEX usage_by_org_created ATTACH PARTITION usage_records_org_created;
        ALTER INDEX usage_by_org_key_created ATTACH PARTITION usage_records_org_key_created;
        ALTER INDEX usage_by_org_model_created ATTACH PARTITION usage_records_org_model_created;
        CREATE TRIGGER usage_records_roll_up AFTER INSERT ON usage_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION roll_up_usage();
      `.execute(trx);
      await sql`SELECT ensure_usage_partitions(3)`.execute(trx);
      await sql.raw(await editedApplyUsageBatch(trx, [DEDUP_DECIDES, ONE_PER_ID])).execute(trx);
    });
  },
};

/** Whether usage_records is already the partitioned table. */
async function partitioned(db: Kysely<unknown>): Promise<boolean> {
  const { rows } = await sql<{ kind: string }>`SELECT relkind AS kind FROM pg_class WHERE oid = 'usage_records'::regclass`.execute(db);
  return rows[0]?.kind === "p";
}

/** usage_dedup filled from the legacy table's recent records, batch by batch along its primary key, resuming where it stopped. */
async function backfillDedup(db: Kysely<unknown>): Promise<void> {
  for (;;) {
    const { rows } = await sql<{ after: string | null; done: boolean }>`SELECT backfill_after AS after, backfilled AS done FROM usage_partitioning`.execute(db);
    if (rows[0]!.done) return;
    const step = await sql<{ last: string | null }>`
      WITH batch AS (
        SELECT request_id, created_at FROM usage_records
        WHERE request_id > ${rows[0]!.after ?? ""} ORDER BY request_id LIMIT ${BACKFILL_BATCH}
      ), kept AS (
        INSERT INTO usage_dedup (request_id, created_at)
        SELECT request_id, created_at FROM batch WHERE created_at >= now() - make_interval(days => ${BACKFILL_DAYS})
        ON CONFLICT (request_id) DO NOTHING
      )
      SELECT max(request_id) AS last FROM batch`.execute(db);
    const last = step.rows[0]?.last ?? null;
    await sql`UPDATE usage_partitioning SET backfill_after = coalesce(${last}, backfill_after), backfilled = ${last === null}`.execute(db);
  }
}
