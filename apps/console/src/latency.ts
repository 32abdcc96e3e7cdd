/**
 * Latency percentiles from the hourly rollups' histograms (the ledger's SpendSeries: each point's
 * `latency_counts` over the answer's `latency_bounds_ms`, docs/console.md): histograms add up count
 * by count, so a p95 is read over any points — an hour's, a day's, a group's whole window.
 */

/** Two histograms added count by count (into `into`). */
export function addCounts(into: number[], counts: readonly number[]): number[] {
  for (let i = 0; i < counts.length; i++) into[i] = (into[i] ?? 0) + (counts[i] ?? 0);
  return into;
}

/**
 * The q-quantile (0.95: the p95) of a histogram, ms, or null without records: the bucket holding the
 * record of that rank, interpolated inside it on a log scale (linearly in the first, from 0); in the
 * last, open bucket, its lower bound. Within the bucket of the true value: at worst its bounds' ratio off.
 */
export function quantileMs(counts: readonly number[], bounds: readonly number[], q = 0.95): number | null {
  const total = counts.reduce((n, c) => n + c, 0);
  if (total === 0) return null;
  const rank = q * total;
  let below = 0;
  for (let i = 0; i < counts.length; i++) {
    const c = counts[i] ?? 0;
    if (c > 0 && below + c >= rank) {
      const lo = i === 0 ? 0 : bounds[i - 1]!;
      const hi = bounds[i];
      if (hi === undefined) return lo;
      const f = Math.min(1, Math.max(0, (rank - below) / c));
      return Math.round(lo === 0 ? hi * f : lo * (hi / lo) ** f);
    }
    below += c;
  }
  return bounds[bounds.length - 1] ?? null;
}
