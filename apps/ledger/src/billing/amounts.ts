/** Exact money arithmetic for statements and reports: integers (BigInt), never a float. */

/** The denominator of a line item's `per`: prices per million tokens are divided by 1,000,000, others are per unit. */
export function perDenominator(per: string): bigint {
  return per === "1M tokens" ? 1_000_000n : 1n;
}

/** numerator / denominator as a decimal string, exact (at most as many fraction digits as the denominator needs; no trailing zeros). */
export function exactDecimal(numerator: bigint, denominator: bigint): string {
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const whole = n / denominator;
  let rest = n % denominator;
  let fraction = "";
  // The denominators here are powers of ten: the expansion ends.
  for (let i = 0; rest !== 0n && i < 18; i++) {
    rest *= 10n;
    fraction += String(rest / denominator);
    rest %= denominator;
  }
  return `${negative ? "-" : ""}${whole}${fraction ? `.${fraction}` : ""}`;
}

/** numerator / denominator rounded to the nearest integer, halves away from zero. */
export function roundHalfUp(numerator: bigint, denominator: bigint): bigint {
  const negative = numerator < 0n;
  const n = negative ? -numerator : numerator;
  const r = (2n * n + denominator) / (2n * denominator);
  return negative ? -r : r;
}
