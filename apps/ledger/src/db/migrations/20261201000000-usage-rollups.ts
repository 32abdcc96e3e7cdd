import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Hourly rollups of the usage records, for the console's charts: per organization × key × model ×
 * UTC hour, the requests, tokens by kind, cost and absorbed cost. They are maintained by a
 * statement-level trigger on usage_records (its transition table holds the batch's new rows), so
 * they change in the same transaction as the records they sum: exactly as right as the ledger, with
 * one set-based upsert per applied batch. Rows are upserted in key order, as every other table the
 * apply function locks, so two ledgers applying at once never deadlock on them. Existing records
 * are summed in when the table is created. The request log's key and model filters get indexes of
 * their own, (org_id, key_id, created_at) and (org_id, model, created_at): without them a filter that
 * matches few of a big organization's records reads all of them (0.6 s at a million). The trigger's function runs with the ledger schema's
 * search_path whoever inserts (an operator's session, a backfill).
 *
 * Run by the migrate step, outside a transaction, in steps that check whether they are done (a
 * migrate stopped part-way resumes): the indexes are built CONCURRENTLY, so inserts go on while they
 * build (an invalid one a stopped build left is dropped and built again). The trigger and the sum
 * of the records before it stay one transaction, which is what makes the sum exact; inserts wait
 * for it (docs/operations.md, "Upgrades: the migrate step").
 */
export const usageRollups: Migration = {
  transaction: false,
  async up(db: Kysely<unknown>) {
    await sql`
      CREATE TABLE IF NOT EXISTS usage_rollups (
        org_id text NOT NULL,
        hour timestamptz NOT NULL,
        key_id text NOT NULL,
        model text NOT NULL,
        requests bigint NOT NULL,
        input_tokens bigint NOT NULL,
        output_tokens bigint NOT NULL,
        cached_input_tokens bigint NOT NULL,
        cache_creation_input_tokens bigint NOT NULL,
        reasoning_tokens bigint NOT NULL,
        cost_minor bigint NOT NULL,
        absorbed_minor bigint NOT NULL,
        PRIMARY KEY (org_id, hour, key_id, model)
      );
      CREATE OR REPLACE FUNCTION roll_up_usage() RETURNS trigger LANGUAGE plpgsql SET search_path FROM CURRENT AS $fn$
      BEGIN
        INSERT INTO usage_rollups AS u (org_id, hour, key_id, model, requests, input_tokens, output_tokens, cached_input_tokens,
          cache_creation_input_tokens, reasoning_tokens, cost_minor, absorbed_minor)
        SELECT n.org_id, date_trunc('hour', n.created_at, 'UTC'), n.key_id, n.model, count(*), sum(n.input_tokens), sum(n.output_tokens),
          sum(n.cached_input_tokens), sum(n.cache_creation_input_tokens), sum(n.reasoning_tokens), sum(n.cost_minor), sum(n.absorbed_minor)
        FROM new_rows n
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
          absorbed_minor = u.absorbed_minor + EXCLUDED.absorbed_minor;
        RETURN NULL;
      END
      $fn$;
    `.execute(db);
    for (const [name, columns] of [
      ["usage_records_org_key_created", "org_id, key_id, created_at"],
      ["usage_records_org_model_created", "org_id, model, created_at"],
    ] as const) {
      const index = await sql<{
        valid: boolean;
      }>`SELECT i.indisvalid AS valid FROM pg_index i JOIN pg_class c ON c.oid = i.indexrelid WHERE c.relname = ${name} AND c.relnamespace = current_schema()::regnamespace`.execute(db);
      if (index.rows[0]?.valid) continue;
      if (index.rows.length > 0) await sql`DROP INDEX CONCURRENTLY ${sql.id(name)}`.execute(db);
      await sql`CREATE INDEX CONCURRENTLY ${sql.id(name)} ON usage_records (${sql.raw(columns)})`.execute(db);
    }
    // The trigger and the sum of the records before it in one transaction: exact (no record is
    // summed twice or missed), but CREATE TRIGGER's lock holds inserts until the sum is done.
    await db.transaction().execute(async (trx) => {
      const made = await sql`SELECT 1 FROM pg_trigger WHERE tgname = 'usage_records_roll_up' AND tgrelid = 'usage_records'::regclass`.execute(trx);
      if (made.rows.length > 0) return;
      await sql`CREATE TRIGGER usage_records_roll_up AFTER INSERT ON usage_records REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION roll_up_usage()`.execute(trx);
      await sql`
        INSERT INTO usage_rollups (org_id, hour, key_id, model, requests, input_tokens, output_tokens, cached_input_tokens,
          cache_creation_input_tokens, reasoning_tokens, cost_minor, absorbed_minor)
        SELECT org_id, date_trunc('hour', created_at, 'UTC'), key_id, model, count(*), sum(input_tokens), sum(output_tokens), sum(cached_input_tokens),
          sum(cache_creation_input_tokens), sum(reasoning_tokens), sum(cost_minor), sum(absorbed_minor)
        FROM usage_records GROUP BY 1, 2, 3, 4`.execute(trx);
    });
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP TRIGGER usage_records_roll_up ON usage_records; DROP FUNCTION roll_up_usage(); DROP TABLE usage_rollups;
      DROP INDEX usage_records_org_key_created; DROP INDEX usage_records_org_model_created;`.execute(db);
  },
};
