import { sql, type Kysely, type Migration } from "@gateway/db";

/**
 * Refusal records (docs/billing.md, "Refusal records"): a request a data-plane refused before routing
 * (`usage.v1.refused`) is kept as a usage record of cost 0 with the error code and message its caller
 * got, so its trace id leads somewhere. Two nullable columns (no rewrite of the partitions; NULL on
 * every other record), and `apply_refusals`, which inserts such records exactly once per request id
 * (usage_dedup decides, as it does for apply_usage_batch) and touches nothing else: no account,
 * lease, budget, journal posting, feed number or rollup. It locks only the usage_dedup and
 * usage_records rows it inserts, in request id order (the first phase of the ledger's lock order),
 * and returns the request ids it inserted.
 */
export const refusalRecords: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE usage_records ADD COLUMN error_code text;
      ALTER TABLE usage_records ADD COLUMN error_message text;
      CREATE FUNCTION apply_refusals(p_records jsonb) RETURNS text[] LANGUAGE sql SET search_path FROM CURRENT AS $fn$
        WITH r AS (
          SELECT DISTINCT ON (d.request_id) d.* FROM jsonb_to_recordset(p_records) AS d(request_id text, org_id text, key_id text, model text,
            route text, status integer, error_code text, error_message text, stream boolean, created_at_ms bigint, duration_ms integer)
          ORDER BY d.request_id
        ), fresh AS (
          INSERT INTO usage_dedup (request_id, created_at)
          SELECT r.request_id, to_timestamp(r.created_at_ms / 1000.0) FROM r ORDER BY r.request_id
          ON CONFLICT (request_id) DO NOTHING
          RETURNING request_id
        ), ins AS (
          INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
            cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms,
            created_at, provider_cost_minor, absorbed_minor, error_code, error_message)
          SELECT r.request_id, r.org_id, r.key_id, r.model, r.route, '', '', '', 0, 0, 0, false, 0, 0, 0, r.stream, r.status, r.duration_ms,
            to_timestamp(r.created_at_ms / 1000.0), 0, 0, r.error_code, r.error_message
          FROM r WHERE r.request_id IN (SELECT fresh.request_id FROM fresh)
          ORDER BY r.request_id
          RETURNING request_id
        )
        SELECT coalesce(array_agg(ins.request_id), '{}') FROM ins
      $fn$;
    `.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`
      DROP FUNCTION apply_refusals(jsonb);
      ALTER TABLE usage_records DROP COLUMN error_message;
      ALTER TABLE usage_records DROP COLUMN error_code;
    `.execute(db);
  },
};
