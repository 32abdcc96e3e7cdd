import { sql, type Kysely, type Migration } from "@gateway/db";
import { editedApplyUsageBatch } from "./apply-function.js";
import { FEED_BLOCK, FEED_LOCK } from "../../feed/lock.js";

/** Before any sequence number is drawn, the transaction says so (the shared advisory lock the watermark waits on). */
const LOCK: [string, string] = [
  "        PERFORM set_config('ledger.rollups_in_apply', 'on', true);\n",
  `        PERFORM set_config('ledger.rollups_in_apply', 'on', true);
        -- The feed's sequence numbers are drawn under this lock: the feed serves none above a number
        -- whose transaction may still be open (src/feed/watermark.ts).
        PERFORM pg_advisory_xact_lock_shared(${FEED_LOCK.classid}, hashtext(current_schema()));
        IF jsonb_array_length(p_records) > ${FEED_BLOCK} THEN
          RAISE EXCEPTION 'a batch of more than ${FEED_BLOCK} records' USING ERRCODE = '54000';
        END IF;
        v_feed := nextval('feed_seq');
`,
];
const DECLARE: [string, string] = ["        v_bcost bigint[];\n", "        v_bcost bigint[];\n        v_feed bigint;\n"];
/** Each new record gets its number in the feed, as it is inserted: the batch's block, from its start, in request id order. */
const NUMBER: [string, string][] = [
  ["end_user, project_id, tags, budget_leases)\n", "end_user, project_id, tags, budget_leases, feed_seq)\n"],
  ["r.end_user, r.project_id, r.tags, r.budget_leases\n", "r.end_user, r.project_id, r.tags, r.budget_leases, v_feed + row_number() OVER (ORDER BY r.request_id) - 1\n"],
];

/**
 * The billing feed (docs/billing.md, "The billing feed"): every usage record, top-up and adjustment
 * gets a number from one sequence, `feed_seq`, in the transaction that makes it, and the feed serves
 * them in that order across every organization. The sequence hands out blocks (FEED_BLOCK): a usage
 * batch draws one and numbers its records from its start (one nextval per batch: a nextval per record
 * cost ~6 µs of Postgres per event, docs/performance.md), a top-up or an adjustment one of its own.
 * Numbers are drawn by concurrent transactions (several apply lanes and ledgers) and commit out of
 * order, so the feed serves only up to `feed_state.visible_through`, below which no transaction that
 * drew a number is still open: every such transaction holds a shared advisory lock from before it
 * draws until it ends, and the watermark (src/feed/watermark.ts) moves to the end of the last block
 * drawn once every holder seen with it has ended. `billing_feed` is the view for
 * those who read Postgres directly. Records from before this migration have no number (the feed
 * begins with it; the export covers them).
 *
 * Run outside a transaction, in steps that each check whether they are done: the number's index on
 * every month of usage_records is built CONCURRENTLY (the records go on being applied meanwhile)
 * and attached to the partitioned index; a month made later gets it with its table. Top-ups and
 * adjustments are numbered by a trigger, so a ledger of the previous release (which knows no
 * number) still numbers its top-ups during a rolling upgrade.
 */
export const feed: Migration = {
  transaction: false,
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE SEQUENCE IF NOT EXISTS feed_seq AS bigint INCREMENT BY ${sql.raw(String(FEED_BLOCK))};
      CREATE TABLE IF NOT EXISTS feed_state (
        id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1),
        visible_through bigint NOT NULL DEFAULT 0,
        advanced_at timestamptz NOT NULL DEFAULT now()
      );
      INSERT INTO feed_state (id) VALUES (1) ON CONFLICT (id) DO NOTHING;
      ALTER TABLE usage_records ADD COLUMN IF NOT EXISTS feed_seq bigint;
      ALTER TABLE top_ups ADD COLUMN IF NOT EXISTS feed_seq bigint;
      ALTER TABLE adjustments ADD COLUMN IF NOT EXISTS feed_seq bigint;
      CREATE UNIQUE INDEX IF NOT EXISTS top_ups_feed_seq ON top_ups (feed_seq);
      CREATE UNIQUE INDEX IF NOT EXISTS adjustments_feed_seq ON adjustments (feed_seq);
      CREATE OR REPLACE FUNCTION number_in_feed() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
      BEGIN
        PERFORM pg_advisory_xact_lock_shared(${sql.raw(String(FEED_LOCK.classid))}, hashtext(current_schema()));
        NEW.feed_seq := nextval('feed_seq');
        RETURN NEW;
      END
      $fn$;
      DROP TRIGGER IF EXISTS top_ups_feed_seq ON top_ups;
      CREATE TRIGGER top_ups_feed_seq BEFORE INSERT ON top_ups FOR EACH ROW EXECUTE FUNCTION number_in_feed();
      DROP TRIGGER IF EXISTS adjustments_feed_seq ON adjustments;
      CREATE TRIGGER adjustments_feed_seq BEFORE INSERT ON adjustments FOR EACH ROW EXECUTE FUNCTION number_in_feed();
    `.execute(db);
    const def = await editedApplyUsageBatch(db, []);
    if (!def.includes("nextval('feed_seq')")) await sql.raw(await editedApplyUsageBatch(db, [DECLARE, LOCK, ...NUMBER])).execute(db);

    // The number's index: on the partitioned table only, then each month's built concurrently and attached.
    await sql`CREATE INDEX IF NOT EXISTS usage_by_feed_seq ON ONLY usage_records (feed_seq) WHERE feed_seq IS NOT NULL`.execute(db);
    const parts = await sql<{ name: string }>`
      SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'usage_records'::regclass ORDER BY 1`.execute(db);
    for (const { name } of parts.rows) {
      const index = `${name}_feed_seq`;
      const attached = await sql`
        SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid
        WHERE i.inhparent = 'usage_by_feed_seq'::regclass AND c.relname = ${index}`.execute(db);
      if (attached.rows.length > 0) continue;
      const found = await sql<{ valid: boolean }>`
        SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid
        WHERE c.relname = ${index} AND c.relnamespace = current_schema()::regnamespace`.execute(db);
      if (found.rows.length > 0 && !found.rows[0]!.valid) await sql`DROP INDEX CONCURRENTLY ${sql.id(index)}`.execute(db);
      // A month made meanwhile by the maintenance already has one (under a name of Postgres's choosing).
      const has = await sql`
        SELECT 1 FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid JOIN pg_index x ON x.indexrelid = c.oid
        WHERE i.inhparent = 'usage_by_feed_seq'::regclass AND x.indrelid = ${name}::regclass`.execute(db);
      if (has.rows.length > 0) continue;
      if (found.rows.length === 0 || !found.rows[0]!.valid) {
        await sql`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${sql.id(index)} ON ${sql.id(name)} (feed_seq) WHERE feed_seq IS NOT NULL`.execute(db);
      }
      await sql`ALTER INDEX usage_by_feed_seq ATTACH PARTITION ${sql.id(index)}`.execute(db);
    }

    // For those who read Postgres: every numbered entry the watermark has passed, one row each.
    await sql`
      CREATE OR REPLACE VIEW billing_feed AS
      WITH visible AS (SELECT visible_through FROM feed_state)
      SELECT u.feed_seq AS seq, 'usage'::text AS kind, u.request_id AS id, u.org_id, -u.cost_minor AS amount_minor,
        u.created_at AS occurred_at, u.recorded_at, u.model, u.request_id
      FROM usage_records u, visible v WHERE u.feed_seq IS NOT NULL AND u.feed_seq <= v.visible_through
      UNION ALL
      SELECT t.feed_seq, 'top_up', t.id, t.org_id, t.amount_minor, t.created_at, t.created_at, NULL, NULL
      FROM top_ups t, visible v WHERE t.feed_seq IS NOT NULL AND t.feed_seq <= v.visible_through
      UNION ALL
      SELECT a.feed_seq, a.kind, a.id, a.org_id,
        CASE a.kind WHEN 'promo_expiry' THEN -a.amount_minor WHEN 'credit_limit' THEN 0 ELSE a.amount_minor END,
        a.created_at, a.created_at, NULL, a.request_id
      FROM adjustments a, visible v WHERE a.feed_seq IS NOT NULL AND a.feed_seq <= v.visible_through;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP VIEW IF EXISTS billing_feed`.execute(db);
    await sql
      .raw(
        await editedApplyUsageBatch(
          db,
          [...NUMBER, LOCK, DECLARE].map(([from, to]) => [to, from] as [string, string]),
        ),
      )
      .execute(db);
    await sql`
      DROP TRIGGER IF EXISTS top_ups_feed_seq ON top_ups;
      DROP TRIGGER IF EXISTS adjustments_feed_seq ON adjustments;
      DROP FUNCTION IF EXISTS number_in_feed();
      DROP INDEX IF EXISTS usage_by_feed_seq;
      ALTER TABLE usage_records DROP COLUMN IF EXISTS feed_seq;
      ALTER TABLE top_ups DROP COLUMN IF EXISTS feed_seq;
      ALTER TABLE adjustments DROP COLUMN IF EXISTS feed_seq;
      DROP TABLE IF EXISTS feed_state;
      DROP SEQUENCE IF EXISTS feed_seq;
    `.execute(db);
  },
};
