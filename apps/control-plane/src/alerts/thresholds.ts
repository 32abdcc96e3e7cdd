import { GatewayError } from "@gateway/errors";

/** At most this many thresholds of each kind (the ledger takes no more). */
export const MAX_THRESHOLDS = 10;
/** A budget threshold is a percentage of the cap: 1 to 1000 (above 100 % tells of spend past a cap a video job overran). */
const MAX_PCT = 1_000;

const refuse = (param: string, why: string) => new GatewayError("invalid_request", `${param} ${why}`, { param });

/** Budget thresholds: whole percentages from 1 to 1000, at most 10, each once, ascending. */
export function budgetPcts(values: readonly unknown[], param = "budget_pcts"): number[] {
  for (const v of values) if (typeof v !== "number" || !Number.isInteger(v) || v < 1 || v > MAX_PCT) throw refuse(param, `must be whole percentages from 1 to ${MAX_PCT}, got ${JSON.stringify(v)}`);
  const out = [...new Set(values as number[])].sort((a, b) => a - b);
  if (out.length > MAX_THRESHOLDS) throw refuse(param, `takes at most ${MAX_THRESHOLDS} percentages, got ${out.length}`);
  return out;
}

/** Balance thresholds: positive whole amounts of minor credit units, at most 10, each once, descending. */
export function balanceAmounts(values: readonly unknown[], param = "balance_minor"): number[] {
  for (const v of values) if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 1) throw refuse(param, `must be positive whole amounts of minor credit units, got ${JSON.stringify(v)}`);
  const out = [...new Set(values as number[])].sort((a, b) => b - a);
  if (out.length > MAX_THRESHOLDS) throw refuse(param, `takes at most ${MAX_THRESHOLDS} amounts, got ${out.length}`);
  return out;
}
