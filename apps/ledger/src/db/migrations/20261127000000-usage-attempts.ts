import { sql, type Kysely, type Migration } from "@gateway/db";
import { createApplyUsageBatch } from "./20261126000000-cache-reasoning-tokens.js";

/** apply_usage_batch as this migration defines it (also what the next migration to redefine it restores on down). */
export async function createApplyUsageBatchWithAttempts(db: Kysely<unknown>): Promise<void> {
  await sql`
      CREATE OR REPLACE FUNCTION apply_usage_batch(p_records jsonb, p_posting text, OUT applied text[], OUT posted boolean)
      LANGUAGE plpgsql AS $fn$
      DECLARE
        v_org text[];
        v_lease text[];
        v_cost bigint[];
        v_month date[];
        v_orgs text[];
        v_total bigint;
        v_lid text[];
        v_lorg text[];
        v_lreleased bigint[];
        v_lcost bigint[];
      BEGIN
        posted := false;
        -- 1. Usage records, in request id order; the primary key skips what was applied before.
        WITH ins AS (
          INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens,
            output_tokens, cached_input_tokens, cache_creation_input_tokens, reasoning_tokens, estimated, cost_minor,
            input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, line_items, guardrails, created_at, journal_txn_id,
            attempts, provider_cost_minor, absorbed_minor, attempt_outcome, attempt_ms)
          SELECT r.request_id, r.org_id, r.key_id, r.model, r.route, r.provider, r.upstream_model, r.lease_id, r.input_tokens,
            r.output_tokens, r.cached_input_tokens, coalesce(r.cache_creation_input_tokens, 0), coalesce(r.reasoning_tokens, 0), r.estimated,
            r.cost_minor, r.input_price_minor_per_mtok, r.output_price_minor_per_mtok, r.stream, r.status, r.duration_ms, r.line_items, r.guardrails, to_timestamp(r.created_at_ms / 1000.0), p_posting,
            coalesce(r.attempts, '[]'), coalesce(r.provider_cost_minor, r.cost_minor), coalesce(r.absorbed_minor, 0), r.attempt_outcome, r.attempt_ms
          FROM jsonb_to_recordset(p_records) AS r(request_id text, org_id text, key_id text, model text, route text,
            provider text, upstream_model text, lease_id text, input_tokens bigint, output_tokens bigint, cached_input_tokens bigint,
            cache_creation_input_tokens bigint, reasoning_tokens bigint, estimated boolean, cost_minor bigint, input_price_minor_per_mtok bigint, output_price_minor_per_mtok bigint, stream boolean,
            status integer, duration_ms integer, line_items jsonb, guardrails jsonb, created_at_ms bigint, attempts jsonb,
            provider_cost_minor bigint, absorbed_minor bigint, attempt_outcome text, attempt_ms integer)
          ORDER BY r.request_id
          ON CONFLICT (request_id) DO NOTHING
          RETURNING request_id, org_id, lease_id, cost_minor, created_at
        )
        SELECT coalesce(array_agg(ins.request_id), '{}'), array_agg(ins.org_id), array_agg(ins.lease_id), array_agg(ins.cost_minor),
          array_agg(date_trunc('month', ins.created_at AT TIME ZONE 'UTC')::date)
        INTO applied, v_org, v_lease, v_cost, v_month
        FROM ins;
        IF cardinality(applied) = 0 THEN
          RETURN;
        END IF;
        v_orgs := ARRAY(SELECT DISTINCT o FROM unnest(v_org) AS o ORDER BY o);
        SELECT sum(c) INTO v_total FROM unnest(v_cost) AS c;

        -- 2. Monthly spend by (org, month) in that order, and one balanced posting for the batch:
        --    each org's debit, and the revenue they sum to.
        IF v_total > 0 THEN
          INSERT INTO monthly_spend (org_id, month, spent_minor)
          SELECT e.org_id, e.month, sum(e.cost) FROM unnest(v_org, v_cost, v_month) AS e(org_id, cost, month)
          WHERE e.cost > 0 GROUP BY e.org_id, e.month ORDER BY e.org_id, e.month
          ON CONFLICT (org_id, month) DO UPDATE SET spent_minor = monthly_spend.spent_minor + EXCLUDED.spent_minor;
          INSERT INTO journal_entries (txn_id, kind, account, amount_minor)
          SELECT p_posting, 'usage', j.account, j.amount FROM (
            SELECT 0 AS part, e.org_id AS org_id, 'org:' || e.org_id AS account, -sum(e.cost) AS amount
            FROM unnest(v_org, v_cost) AS e(org_id, cost) WHERE e.cost > 0 GROUP BY e.org_id
            UNION ALL
            SELECT 1, '', 'system:revenue', v_total
          ) j ORDER BY j.part, j.org_id;
          posted := true;
        END IF;

        -- 3. Accounts, created if new, locked in org id order.
        INSERT INTO accounts (org_id) SELECT o FROM unnest(v_orgs) AS o ORDER BY o ON CONFLICT (org_id) DO NOTHING;
        PERFORM 1 FROM accounts WHERE org_id = ANY(v_orgs) ORDER BY org_id FOR UPDATE;

        -- 4. Leases, locked in id order. A lease settles only the usage of its own organization; per
        --    event, min(cost, remaining) telescopes to min(total cost, remaining).
        PERFORM 1 FROM leases WHERE id = ANY(v_lease) ORDER BY id FOR UPDATE;
        SELECT coalesce(array_agg(l.id), '{}'), array_agg(l.org_id), array_agg(LEAST(d.cost, l.remaining_minor)), array_agg(d.cost)
        INTO v_lid, v_lorg, v_lreleased, v_lcost
        FROM (SELECT e.lease_id, e.org_id, sum(e.cost) AS cost FROM unnest(v_lease, v_org, v_cost) AS e(lease_id, org_id, cost)
              WHERE e.lease_id <> '' GROUP BY e.lease_id, e.org_id) d
        JOIN leases l ON l.id = d.lease_id AND l.org_id = d.org_id;
        IF cardinality(v_lid) > 0 THEN
          UPDATE leases SET remaining_minor = leases.remaining_minor - u.released, applied_minor = leases.applied_minor + u.cost
          FROM unnest(v_lid, v_lreleased, v_lcost) AS u(id, released, cost)
          WHERE leases.id = u.id;
        END IF;

        -- 5. Balances, spend and holds.
        UPDATE accounts SET balance_minor = accounts.balance_minor - o.cost, spent_minor = accounts.spent_minor + o.cost,
          held_minor = GREATEST(0, accounts.held_minor - coalesce(r.released, 0)), updated_at = now()
        FROM (SELECT e.org_id, sum(e.cost) AS cost FROM unnest(v_org, v_cost) AS e(org_id, cost) GROUP BY e.org_id) o
          LEFT JOIN (SELECT x.org_id, sum(x.released) AS released FROM unnest(v_lorg, v_lreleased) AS x(org_id, released) GROUP BY x.org_id) r
          ON r.org_id = o.org_id
        WHERE accounts.org_id = o.org_id;
      END
      $fn$;
  `.execute(db);
}

/**
 * Usage records keep every upstream attempt of their request: `attempts`, a JSON array of
 * AttemptV1, or for the usual single attempt billed as the record says, only what the record does
 * not say in two plain columns (`attempt_outcome`, `attempt_ms`; attempts then `[]`); records from
 * before attempts were kept have `[]` and no outcome. Also what the provider charges the operator
 * for them (`provider_cost_minor`; NULL before: the cost at the catalog's price) and the part of it
 * nobody was billed for (`absorbed_minor`). apply_usage_batch stores them: the function of
 * 20261126000000-cache-reasoning-tokens with those columns added, nothing else changed.
 */
export const usageAttempts: Migration = {
  async up(db: Kysely<unknown>) {
    await sql`
      ALTER TABLE usage_records ADD COLUMN attempts jsonb NOT NULL DEFAULT '[]';
      ALTER TABLE usage_records ADD COLUMN provider_cost_minor bigint;
      ALTER TABLE usage_records ADD COLUMN absorbed_minor bigint NOT NULL DEFAULT 0;
      ALTER TABLE usage_records ADD COLUMN attempt_outcome text;
      ALTER TABLE usage_records ADD COLUMN attempt_ms integer;
    `.execute(db);
    await createApplyUsageBatchWithAttempts(db);
  },
  async down(db: Kysely<unknown>) {
    await sql`DROP FUNCTION apply_usage_batch(jsonb, text)`.execute(db);
    await sql`ALTER TABLE usage_records DROP COLUMN attempts, DROP COLUMN provider_cost_minor, DROP COLUMN absorbed_minor, DROP COLUMN attempt_outcome, DROP COLUMN attempt_ms`.execute(db);
    await createApplyUsageBatch(db);
  },
};
