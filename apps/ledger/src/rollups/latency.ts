/**
 * The hourly rollups' latency histogram (usage_rollups.latency_counts): how many of the row's records
 * took each range of duration_ms, over fixed, log-spaced bounds — 1, 1.5, 2, 3, 5, 7 per decade from
 * 10 ms to 300 s. Count i (0-based) holds the records with BOUNDS[i-1] ≤ duration_ms < BOUNDS[i]
 * (Postgres `width_bucket(duration_ms, bounds)` = i): the first those under 10 ms, the last those of
 * 300 s or more. Rows add up element by element, so a p95 is read from any set of rows (an hour,
 * a day, a whole window, several keys) at read time, within one bucket of the true one: each bucket's
 * upper bound is at most 1.67× its lower (30→50, 300→500 …; 1.5× or less for the others).
 *
 * The bounds are part of the table's meaning: the migration that made the column wrote them into
 * apply_usage_batch. Changing them needs a migration that recounts the histograms.
 */
export const LATENCY_BOUNDS_MS: readonly number[] = [
  10, 15, 20, 30, 50, 70, 100, 150, 200, 300, 500, 700, 1_000, 1_500, 2_000, 3_000, 5_000, 7_000, 10_000, 15_000, 20_000, 30_000, 50_000, 70_000, 100_000, 150_000, 200_000, 300_000,
];

/** The histogram's length: one count below the first bound, one per bound. */
export const LATENCY_BUCKETS = LATENCY_BOUNDS_MS.length + 1;

/** The bounds as a Postgres int[] literal. */
export const LATENCY_BOUNDS_SQL = `'{${LATENCY_BOUNDS_MS.join(",")}}'::int[]`;

/** SQL: the histogram of the rows grouped, from each row's bucket index `bucket` (width_bucket over the bounds): one count per bucket. */
export const histogramOf = (bucket: string) => `ARRAY[${Array.from({ length: LATENCY_BUCKETS }, (_, i) => `count(*) FILTER (WHERE ${bucket} = ${i})`).join(", ")}]::int[]`;

/** SQL: two histograms added element by element. */
export const histogramSum = (a: string, b: string) => `ARRAY[${Array.from({ length: LATENCY_BUCKETS }, (_, i) => `${a}[${i + 1}] + ${b}[${i + 1}]`).join(", ")}]`;

/** SQL: the histograms of the rows grouped, summed (bigint counts). */
export const histogramTotal = (column: string) => `ARRAY[${Array.from({ length: LATENCY_BUCKETS }, (_, i) => `sum(${column}[${i + 1}])`).join(", ")}]::bigint[]`;

/** SQL: the empty histogram (every count 0). */
export const EMPTY_HISTOGRAM_SQL = `'{${new Array(LATENCY_BUCKETS).fill(0).join(",")}}'::int[]`;
