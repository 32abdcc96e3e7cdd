import { sql } from "@gateway/db";
import type { CostReportRequest, CostReportResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { windowOf } from "./window.js";

/** Longest window one report covers: a quarter (the scan is over every organization's records). */
const MAX_WINDOW_MS = 93 * 86_400_000;

/**
 * What upstream attempts cost in [from_ms, to_ms) (requests received in it), for the operator
 * (docs/billing.md, "Attempts and who pays"): per UTC day and provider, the attempts, the unserved
 * ones, the provider's charge and the part nobody was billed for; per organization, what was billed,
 * what the providers charge for it, what was absorbed and the margin. A record kept as its one
 * billed attempt, and records from before attempts were kept, count as one attempt by the caller;
 * a record without a provider (a request an input guardrail denied) made no attempt.
 * Read organization by organization on usage_records (org_id, created_at), so no index of its own
 * costs every insert; both statements in one read-only snapshot.
 */
export function costReport(ctx: LedgerContext) {
  return async (req: CostReportRequest): Promise<CostReportResponse> => {
    const [from, to] = windowOf(req, { ms: MAX_WINDOW_MS, message: "the window may span at most 93 days" });
    return ctx.db
      .transaction()
      .setIsolationLevel("repeatable read")
      .setAccessMode("read only")
      .execute(async (trx) => {
        const providers = await sql<{ day: string; provider: string; attempts: number; unserved: number; provider_cost_minor: number; absorbed_minor: number }>`
          SELECT to_char(r.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD') AS day, a.provider,
            count(*)::bigint AS attempts,
            count(*) FILTER (WHERE a.outcome IN ('failed', 'timeout'))::bigint AS unserved,
            coalesce(sum(a.provider_cost_minor), 0)::bigint AS provider_cost_minor,
            coalesce(sum(a.provider_cost_minor) FILTER (WHERE a.payer = 'operator'), 0)::bigint AS absorbed_minor
          FROM accounts o
          CROSS JOIN LATERAL (
            SELECT * FROM usage_records u WHERE u.org_id = o.org_id AND u.created_at >= ${from} AND u.created_at < ${to}
          ) r
          CROSS JOIN LATERAL (
            SELECT x.provider, x.outcome, x.provider_cost_minor, x.payer
            FROM jsonb_to_recordset(r.attempts) AS x(provider text, outcome text, provider_cost_minor bigint, payer text)
            UNION ALL
            SELECT r.provider, coalesce(r.attempt_outcome, 'served'), coalesce(r.provider_cost_minor, r.cost_minor), 'caller'
            WHERE r.attempts = '[]' AND r.provider <> ''
          ) a
          GROUP BY 1, 2 ORDER BY 1, 2`.execute(trx);
        const orgs = await sql<{ org_id: string; requests: number; billed_minor: number; provider_cost_minor: number; absorbed_minor: number }>`
          SELECT o.org_id, r.requests, r.billed_minor, r.provider_cost_minor, r.absorbed_minor
          FROM accounts o
          CROSS JOIN LATERAL (
            SELECT count(*)::bigint AS requests, coalesce(sum(cost_minor), 0)::bigint AS billed_minor,
              coalesce(sum(coalesce(provider_cost_minor, cost_minor)), 0)::bigint AS provider_cost_minor,
              coalesce(sum(absorbed_minor), 0)::bigint AS absorbed_minor
            FROM usage_records u WHERE u.org_id = o.org_id AND u.created_at >= ${from} AND u.created_at < ${to}
          ) r
          WHERE r.requests > 0
          ORDER BY o.org_id`.execute(trx);
        return {
          providers: providers.rows,
          orgs: orgs.rows.map((o) => ({ ...o, margin_minor: o.billed_minor - o.provider_cost_minor })),
        };
      });
  };
}
