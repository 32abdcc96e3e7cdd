import type { ApiKey, Credits, SpendPoint, SpendSeriesResponse } from "@gateway/proto";
import { addCounts, quantileMs } from "./latency.js";
import { DAY_MS, endOfThisHour } from "./params.js";

/** A chart's window: 1 to 90 days back from the end of this hour, by hour up to a week, by day past it; grouped by model or key. */
export interface ChartWindow {
  days: number;
  from_ms: number;
  to_ms: number;
  bucket: "hour" | "day";
  group_by: "model" | "key";
}

export function chartWindow(query: Record<string, unknown>, defaultDays = 7): ChartWindow {
  const days = Math.min(Math.max(Number.parseInt(String(query.days ?? defaultDays), 10) || defaultDays, 1), 90);
  const to = endOfThisHour();
  return { days, from_ms: to - days * DAY_MS, to_ms: to, bucket: days <= 7 ? "hour" : "day", group_by: query.group === "key" ? "key" : "model" };
}

/**
 * The model the ledger's hourly rollups count a refused request under when the gateway had not
 * resolved its model (an unknown name, none, a body refused before it was read): one group, whatever
 * the callers sent (apps/ledger/src/rollups/refusals.ts, UNRESOLVED_MODEL). A chart shows it as it is;
 * it is no model to filter the request log by (the records keep the names sent).
 */
export const UNRESOLVED_MODEL = "(unknown model)";

/** What a key is called on a page: its name, or its prefix when it has none. */
export const keyLabel = (k: Pick<ApiKey, "name" | "prefix">) => k.name || `${k.prefix}… (unnamed)`;

/**
 * The burn rate: the window's spend per day over the days the organization could spend in it (a
 * day-old organization's week is one day, never seven: its days left would read seven times too
 * many), at least one day; and the days the balance lasts at that rate (null when nothing is spent).
 */
export function burnRate(spentMinor: number, w: ChartWindow, orgCreatedAtMs: number, balanceMinor: number, now = Date.now()) {
  const since = Math.max(w.from_ms, orgCreatedAtMs || 0);
  const days = Math.min(w.days, Math.max(1, (now - since) / DAY_MS));
  const burn = Math.ceil(spentMinor / days);
  return {
    burn_rate_minor_per_day: burn,
    burn_days: Math.round(days * 10) / 10,
    days_left: burn > 0 ? Math.floor((Math.max(balanceMinor, 0) / burn) * 10) / 10 : null,
  };
}

/** A point as the pages draw it: the rollups' sums, and its p95 latency (ms; null without records) in place of its histogram. */
export type ChartPoint = Omit<SpendPoint, "latency_counts"> & { p95_ms: number | null };

/**
 * The series as the pages draw it: each point with its p95 latency, and each group's p95 over the
 * whole window (its points' histograms added), for the totals and the charts' summaries.
 */
export function chartSeries(series: SpendSeriesResponse): { points: ChartPoint[]; p95_ms: Record<string, number | null> } {
  const bounds = series.latency_bounds_ms;
  const byGroup = new Map<string, number[]>();
  const points = series.points.map(({ latency_counts, ...p }) => {
    byGroup.set(p.group, addCounts(byGroup.get(p.group) ?? [], latency_counts));
    return { ...p, p95_ms: quantileMs(latency_counts, bounds) };
  });
  return { points, p95_ms: Object.fromEntries([...byGroup].map(([g, counts]) => [g, quantileMs(counts, bounds)])) };
}

/**
 * An organization's overview as the pages draw it: its credits, the window's usage per bucket and
 * group (requests, errors, tokens by kind, cost and the p95 latency: from the hourly rollups), each
 * group's label (a key's name, not its id) and the burn rate.
 */
export function overviewOf(credits: Credits, series: SpendSeriesResponse, w: ChartWindow, orgCreatedAtMs: number, keys: ApiKey[]) {
  const { points, p95_ms } = chartSeries(series);
  const spent = points.reduce((n, p) => n + p.cost_minor, 0);
  const names = new Map(keys.map((k) => [k.id, keyLabel(k)]));
  const labels = Object.fromEntries([...new Set(points.map((p) => p.group))].map((g) => [g, w.group_by === "key" ? (names.get(g) ?? g) : g]));
  return { credits, days: w.days, bucket: w.bucket, group_by: w.group_by, points, p95_ms, labels, ...burnRate(spent, w, orgCreatedAtMs, credits.balance_minor) };
}

/** The hourly rollups' series request of a window (SpendSeries). */
export const seriesOf = (orgId: string, w: ChartWindow) => ({ org_id: orgId, from_ms: w.from_ms, to_ms: w.to_ms, bucket: w.bucket, group_by: w.group_by });
