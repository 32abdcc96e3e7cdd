import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type {
  DeploymentHealth,
  GuardrailCount,
  GuardrailCountsRequest,
  GuardrailCountsResponse,
  OrgBalance,
  OrgBalancesRequest,
  OrgBalancesResponse,
  ProviderHealthRequest,
  ProviderHealthResponse,
} from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { windowOf } from "./window.js";

const HOUR_MS = 3_600_000;
const MAX_ORGS = 100;

/**
 * The credits of up to 100 organizations and their spend since `from_ms` (from the hourly rollups:
 * one index range per organization), for the operator's organization list. Organizations the
 * ledger has not seen answer zeros.
 */
export function orgBalances(ctx: LedgerContext) {
  return async (req: OrgBalancesRequest): Promise<OrgBalancesResponse> => {
    const ids = [...new Set(req.org_ids)];
    if (ids.length > MAX_ORGS) throw new GatewayError("invalid_request", `at most ${MAX_ORGS} organizations at once`);
    if (!Number.isSafeInteger(req.from_ms) || req.from_ms < 0) throw new GatewayError("invalid_request", "from_ms must be a Unix time in milliseconds");
    if (ids.length === 0) return { orgs: [] };
    const from = new Date(Math.floor(req.from_ms / HOUR_MS) * HOUR_MS);
    const rows = await sql<OrgBalance>`
      SELECT o.org_id, coalesce(a.balance_minor, 0) AS balance_minor, coalesce(a.held_minor, 0) AS held_minor,
        coalesce(m.spent_minor, 0) AS month_spent_minor, coalesce(r.cost, 0) AS window_spent_minor, coalesce(r.requests, 0) AS window_requests
      FROM unnest(${ids}::text[]) AS o(org_id)
      LEFT JOIN accounts a ON a.org_id = o.org_id
      LEFT JOIN monthly_spend m ON m.org_id = o.org_id AND m.month = date_trunc('month', now() AT TIME ZONE 'UTC')::date
      LEFT JOIN LATERAL (SELECT sum(cost_minor)::bigint AS cost, sum(requests)::bigint AS requests FROM usage_rollups WHERE org_id = o.org_id AND hour >= ${from}) r ON true`.execute(ctx.db);
    const byId = new Map(rows.rows.map((r) => [r.org_id, r]));
    return { orgs: ids.map((id) => byId.get(id)!) };
  };
}

/** An attempt failed when the provider did not serve it; a client that left or a cut stream is not the provider's failure. */
const NOT_FAILED = ["served", "client_gone", "cut"];
/** Failures in a row counted back from the latest attempt, up to this many. */
const STREAK = 20;

/**
 * Every organization's upstream attempts in a window (at most 24 hours), per provider and upstream
 * model: attempts, failures,
 * timeouts, the latency of served attempts, the last failure, and the failures in a row among the
 * latest attempts — what the data-plane's breakers act on. Records of one attempt keep it in
 * columns (attempt_outcome, attempt_ms), records of several in the attempts array. The window is
 * read through the (org_id, created_at) index, one range per organization with an account (every
 * organization with usage has one): ~13 ms over 1,000 organizations, and no index of its own for
 * the apply path to keep.
 */
export function providerHealth(ctx: LedgerContext) {
  return async (req: ProviderHealthRequest): Promise<ProviderHealthResponse> => {
    const [from, to] = windowOf(req, { ms: 24 * HOUR_MS, message: "provider health spans at most 24 hours" });
    const rows = await sql<Omit<DeploymentHealth, "failure_streak"> & { latest: boolean[] }>`
      WITH a AS (
        SELECT u.created_at, e->>'provider' AS provider, e->>'upstream_model' AS upstream_model, e->>'outcome' AS outcome, (e->>'duration_ms')::int AS ms
        FROM usage_records u CROSS JOIN LATERAL jsonb_array_elements(u.attempts) e
        WHERE u.org_id = ANY (ARRAY(SELECT org_id FROM accounts)) AND u.created_at >= ${from} AND u.created_at < ${to} AND jsonb_array_length(u.attempts) > 0
        UNION ALL
        SELECT created_at, provider, upstream_model, attempt_outcome, attempt_ms FROM usage_records
        WHERE org_id = ANY (ARRAY(SELECT org_id FROM accounts)) AND created_at >= ${from} AND created_at < ${to} AND attempt_outcome IS NOT NULL
      ), f AS (SELECT *, outcome <> ALL (${NOT_FAILED}::text[]) AS failed FROM a)
      SELECT provider, upstream_model, count(*)::int AS attempts, count(*) FILTER (WHERE failed)::int AS failures,
        count(*) FILTER (WHERE outcome = 'timeout')::int AS timeouts,
        coalesce(percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE outcome = 'served'), 0)::int AS p50_ms,
        coalesce(percentile_disc(0.95) WITHIN GROUP (ORDER BY ms) FILTER (WHERE outcome = 'served'), 0)::int AS p95_ms,
        coalesce((extract(epoch FROM max(created_at) FILTER (WHERE failed)) * 1000)::bigint, 0) AS last_failure_ms,
        (array_agg(failed ORDER BY created_at DESC))[1:${STREAK}] AS latest
      FROM f GROUP BY 1, 2 ORDER BY 1, 2`.execute(ctx.db);
    return {
      deployments: rows.rows.map(({ latest, ...d }) => {
        const streak = latest.indexOf(false);
        return { ...d, last_failure_ms: Number(d.last_failure_ms), failure_streak: streak === -1 ? latest.length : streak };
      }),
    };
  };
}

/** How often each of an organization's guardrail rules fired (by outcome) in a window of at most 31 days. */
export function guardrailCounts(ctx: LedgerContext) {
  return async (req: GuardrailCountsRequest): Promise<GuardrailCountsResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const [from, to] = windowOf(req, { ms: 31 * 24 * HOUR_MS, message: "a guardrail count spans at most 744 hours" });
    const rows = await sql<GuardrailCount>`
      SELECT g->>'plugin' AS plugin, coalesce(g->>'name', '') AS name, g->>'outcome' AS outcome, count(*)::int AS count
      FROM usage_records u CROSS JOIN LATERAL jsonb_array_elements(u.guardrails) g
      WHERE u.org_id = ${req.org_id} AND u.created_at >= ${from} AND u.created_at < ${to} AND u.guardrails <> '[]'::jsonb
      GROUP BY 1, 2, 3 ORDER BY 1, 2, 3`.execute(ctx.db);
    return { counts: rows.rows };
  };
}
