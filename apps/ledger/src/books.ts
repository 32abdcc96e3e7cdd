import { sql, type Kysely } from "@gateway/db";
import type { CheckBooksResponseInput } from "@gateway/proto";
import type { LedgerContext } from "./context.js";
import type { LedgerDb } from "./db/schema.js";
import { histogramOf, LATENCY_BOUNDS_SQL } from "./rollups/latency.js";
import { rollupModelOf } from "./rollups/refusals.js";

/**
 * What the billing team relies on, checked over every account: balance = top-ups + refunds and
 * credit notes + promotional credit granted − expired − spend, spend = sum of usage records (and,
 * for months dropped by retention, of their hourly rollups), held = what leases still hold, every
 * journal transaction sums to zero, an org's paid journal account sums to its balance less its
 * promotional credit and its promotional account to that credit, the account's adjustment totals
 * are its adjustments summed, no request is refunded more than it cost, and the hourly rollups (the
 * console's charts) from where the records begin are exactly the usage records summed (their error
 * counts and latency histograms too; refusal records counted as requests and errors under their
 * rollup model, in no histogram). Returns the violations (empty when the books hold).
 */
export async function bookViolations(db: Kysely<LedgerDb>): Promise<string[]> {
  const r = await sql<{ problem: string }>`
    SELECT 'balance ' || org_id AS problem FROM accounts
      WHERE balance_minor <> topped_up_minor + adjusted_minor + promo_granted_minor - promo_expired_minor - spent_minor
    UNION ALL
    SELECT 'promotional ' || org_id FROM accounts WHERE promo_minor < 0 OR promo_minor > promo_granted_minor - promo_expired_minor
    UNION ALL
    SELECT 'adjusted ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT org_id, sum(amount_minor) FILTER (WHERE kind IN ('refund', 'credit_note')) AS adjusted,
                   sum(amount_minor) FILTER (WHERE kind = 'promo_grant') AS granted, sum(amount_minor) FILTER (WHERE kind = 'promo_expiry') AS expired,
                   sum(expired_minor) FILTER (WHERE kind = 'promo_grant') AS expired_of_grants
                 FROM adjustments GROUP BY org_id) x USING (org_id)
      WHERE (a.adjusted_minor, a.promo_granted_minor, a.promo_expired_minor, a.promo_expired_minor)
        IS DISTINCT FROM (coalesce(x.adjusted, 0), coalesce(x.granted, 0), coalesce(x.expired, 0), coalesce(x.expired_of_grants, 0))
    UNION ALL
    SELECT 'refunds ' || x.request_id FROM (SELECT org_id, request_id, sum(amount_minor) AS refunded FROM adjustments WHERE kind = 'refund' GROUP BY 1, 2) x
      LEFT JOIN usage_records u ON u.request_id = x.request_id AND u.org_id = x.org_id
      -- A refunded record is missing only where retention dropped its month.
      WHERE (u.request_id IS NULL AND (SELECT retained_from FROM usage_partitioning) IS NULL) OR x.refunded > u.cost_minor
    UNION ALL
    SELECT 'promo journal ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT substr(account, 7) AS org_id, sum(amount_minor) AS s FROM journal_entries WHERE account LIKE 'promo:%' GROUP BY 1) j USING (org_id)
      WHERE a.promo_minor <> coalesce(j.s, 0)
    UNION ALL
    SELECT 'spent ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT org_id, sum(cost_minor) AS s FROM usage_records GROUP BY org_id) u USING (org_id)
      LEFT JOIN (SELECT org_id, sum(cost_minor) AS s FROM usage_rollups, usage_partitioning p WHERE hour < p.retained_from GROUP BY org_id) d USING (org_id)
      WHERE a.spent_minor <> coalesce(u.s, 0) + coalesce(d.s, 0)
    UNION ALL
    SELECT 'held ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT org_id, sum(remaining_minor) AS s FROM leases GROUP BY org_id) l USING (org_id)
      WHERE a.held_minor <> coalesce(l.s, 0)
    UNION ALL
    SELECT 'journal txn ' || txn_id FROM journal_entries GROUP BY txn_id HAVING sum(amount_minor) <> 0
    UNION ALL
    SELECT 'journal org ' || a.org_id FROM accounts a
      LEFT JOIN (SELECT substr(account, 5) AS org_id, sum(amount_minor) AS s FROM journal_entries WHERE account LIKE 'org:%' GROUP BY 1) j USING (org_id)
      WHERE a.balance_minor - a.promo_minor <> coalesce(j.s, 0)
    UNION ALL
    SELECT 'lease ' || id FROM leases WHERE remaining_minor > granted_minor
    UNION ALL
    SELECT 'rollup ' || coalesce(r.org_id, u.org_id) || ' ' || coalesce(r.hour, u.hour) || ' ' || coalesce(r.key_id, u.key_id) || ' ' || coalesce(r.model, u.model)
    FROM (SELECT r.* FROM usage_rollups r, usage_partitioning p WHERE p.retained_from IS NULL OR r.hour >= p.retained_from) r
    FULL JOIN (
      SELECT org_id, date_trunc('hour', created_at, 'UTC') AS hour, key_id, rollup_model AS model, count(*) AS requests, sum(input_tokens) AS input_tokens,
        sum(output_tokens) AS output_tokens, sum(cached_input_tokens) AS cached, sum(cache_creation_input_tokens) AS cache_writes,
        sum(reasoning_tokens) AS reasoning, sum(cost_minor) AS cost, sum(absorbed_minor) AS absorbed,
        count(*) FILTER (WHERE status NOT BETWEEN 200 AND 299) AS errors, ${sql.raw(histogramOf("latency_bucket"))} AS latency_counts
      -- A refusal record (cost 0, error_code set) is a request and an error under its rollup model, in no latency bucket: it reached no provider (docs/billing.md, "Refusal records").
      FROM (SELECT *, ${sql.raw(rollupModelOf("usage_records"))} AS rollup_model,
              CASE WHEN error_code IS NULL THEN width_bucket(duration_ms, ${sql.raw(LATENCY_BOUNDS_SQL)}) END AS latency_bucket
            FROM usage_records) x GROUP BY 1, 2, 3, 4
    ) u USING (org_id, hour, key_id, model)
    WHERE (r.requests, r.input_tokens, r.output_tokens, r.cached_input_tokens, r.cache_creation_input_tokens, r.reasoning_tokens, r.cost_minor, r.absorbed_minor, r.errors, r.latency_counts)
      IS DISTINCT FROM (u.requests, u.input_tokens, u.output_tokens, u.cached, u.cache_writes, u.reasoning, u.cost, u.absorbed, u.errors, u.latency_counts)`.execute(db);
  return r.rows.map((row) => row.problem);
}

/** The longest a check may read, ms: it sums every record (the services' statements stop at 10 s). */
const CHECK_TIMEOUT_MS = 30 * 60_000;

/**
 * CheckBooks (gatewayctl ledger check): every invariant of {@link bookViolations}, read in one
 * repeatable-read snapshot so usage applied meanwhile cannot make a false violation.
 */
export function checkBooks(ctx: LedgerContext) {
  return async (): Promise<CheckBooksResponseInput> =>
    ctx.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .execute(async (trx) => {
        await sql`SELECT set_config('statement_timeout', ${String(CHECK_TIMEOUT_MS)}, true)`.execute(trx);
        const violations = await bookViolations(trx);
        const counts = await sql<{ accounts: number; records: number }>`
          SELECT (SELECT count(*) FROM accounts)::bigint AS accounts, (SELECT count(*) FROM usage_records)::bigint AS records`.execute(trx);
        return { violations, accounts: counts.rows[0]!.accounts, usage_records: counts.rows[0]!.records, checked_at_ms: Date.now() };
      });
}
