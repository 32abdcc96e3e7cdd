/**
 * The pause after the `failedAttempts`-th failed attempt, ms: `baseMs` doubled after each failure up
 * to `maxMs` (5 s, 10 s, 20 s … 1 h by default), shortened at random by up to half, so receivers
 * that failed together (an outage) are not all tried again at the same instant.
 */
export function retryDelayMs(failedAttempts: number, baseMs: number, maxMs: number, random: () => number = Math.random): number {
  const full = Math.min(maxMs, baseMs * 2 ** Math.min(Math.max(failedAttempts, 1) - 1, 40));
  return Math.round(full - (full / 2) * random());
}
