import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { SpendPoint, SpendSeriesRequest, SpendSeriesResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { histogramTotal, LATENCY_BOUNDS_MS } from "../rollups/latency.js";
import { windowOf } from "./window.js";

const HOUR_MS = 3_600_000;
/** Longest window per bucket: a month of hours, thirteen months of days (a bounded answer: at most ~750 points per group). */
const MAX_WINDOW_MS = { hour: 31 * 24 * HOUR_MS, day: 400 * 24 * HOUR_MS } as const;
const GROUP_COLUMN = { model: sql.raw("model"), key: sql.raw("key_id"), "": sql.raw("''") } as const;

/** Own keys only: `"constructor" in GROUP_COLUMN` holds too. */
const isGroup = (g: string): g is keyof typeof GROUP_COLUMN => Object.hasOwn(GROUP_COLUMN, g);

/** The latency histograms of a bucket's rows, summed (src/rollups/latency.ts). */
const LATENCY_TOTAL = sql.raw(histogramTotal("latency_counts"));
/** What a point carries instead when the caller charts no latency (`without_latency`): 29 sums a row saved. */
const NO_LATENCY = sql.raw("'{}'::bigint[]");

/**
 * One organization's usage per UTC hour or day, from usage_rollups (written by apply_usage_batch in
 * the same statement as the usage records, so as right as the ledger): one index range scan on
 * (org_id, hour), whatever the number of records behind it (with `key_id`, one key's). Each point carries its error count and
 * its rows' latency histograms summed, over the bounds the answer names (a p95 is read from them),
 * unless the caller asked `without_latency`.
 */
export function spendSeries(ctx: LedgerContext) {
  return async (req: SpendSeriesRequest): Promise<SpendSeriesResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    if (req.bucket !== "hour" && req.bucket !== "day") throw new GatewayError("invalid_request", "bucket must be 'hour' or 'day'");
    const groupBy = req.group_by;
    if (!isGroup(groupBy)) throw new GatewayError("invalid_request", "group_by must be 'model', 'key' or empty");
    const [, to] = windowOf(req, { ms: MAX_WINDOW_MS[req.bucket], message: `the window may span at most ${MAX_WINDOW_MS[req.bucket] / (24 * HOUR_MS)} days by ${req.bucket}` });
    const from = new Date(Math.floor(req.from_ms / HOUR_MS) * HOUR_MS);
    const group = GROUP_COLUMN[groupBy];
    const rows = await sql<Omit<SpendPoint, "latency_counts"> & { latency_counts: string[] }>`
      SELECT (extract(epoch FROM date_trunc(${req.bucket}, hour, 'UTC')) * 1000)::bigint AS bucket_start_ms, ${group} AS "group",
        sum(requests)::bigint AS requests, sum(input_tokens)::bigint AS input_tokens, sum(output_tokens)::bigint AS output_tokens,
        sum(cached_input_tokens)::bigint AS cached_input_tokens, sum(cache_creation_input_tokens)::bigint AS cache_creation_input_tokens,
        sum(reasoning_tokens)::bigint AS reasoning_tokens, sum(cost_minor)::bigint AS cost_minor, sum(absorbed_minor)::bigint AS absorbed_minor,
        sum(errors)::bigint AS errors, ${req.without_latency ? NO_LATENCY : LATENCY_TOTAL} AS latency_counts
      FROM usage_rollups
      WHERE org_id = ${req.org_id} AND hour >= ${from} AND hour < ${to}${req.key_id ? sql` AND key_id = ${req.key_id}` : sql``}
      GROUP BY 1, 2 ORDER BY 1, 2`.execute(ctx.db);
    return {
      points: rows.rows.map((r) => ({ ...r, bucket_start_ms: Number(r.bucket_start_ms), latency_counts: r.latency_counts.map(Number) })),
      latency_bounds_ms: [...LATENCY_BOUNDS_MS],
    };
  };
}
