/** What the adjustment commands share (credits refund, credit-note, promo, limit; docs/billing.md, "Adjustments"). */
import type { AdjustmentResponse } from "@gateway/proto";
import { type Env, UsageError } from "./command.js";
import type { Printer } from "./output.js";

/** Who decides an adjustment, kept with it: --actor, else GATEWAY_ACTOR; required. */
export function actor(flag: string | undefined, env: Env): string {
  const who = flag ?? env.GATEWAY_ACTOR ?? "";
  if (!who.trim()) throw new UsageError("an adjustment names who decided it: --actor NAME (or GATEWAY_ACTOR)");
  return who;
}

/** A positive integer flag (minor units). */
export function positiveFlag(v: string | undefined, flag: string): number {
  if (v === undefined) throw new UsageError(`missing ${flag}`);
  if (!/^[1-9][0-9]*$/.test(v) || !Number.isSafeInteger(Number(v))) throw new UsageError(`${flag} must be a positive integer, got '${v}'`);
  return Number(v);
}

/** One adjustment's answer: what was made (or, for a used key, that nothing was) and the balance after. */
export function adjustmentOutput(out: Printer, r: AdjustmentResponse, key: string): void {
  const a = r.adjustment!;
  const c = r.credits;
  out.print(
    { ...a, id: a.adjustment_id, duplicate: r.duplicate, balance_minor: c?.balance_minor ?? 0, promo_minor: c?.promo_minor ?? 0, credit_limit_minor: c?.credit_limit_minor ?? 0 },
    r.duplicate
      ? `already applied; nothing done: ${key ? `--idempotency-key ${key} is` : "the last change was"} ${a.kind} ${a.adjustment_id}; balance ${c?.balance_minor ?? 0} minor units`
      : `${a.kind} ${a.adjustment_id}: ${a.amount_minor} minor units; balance ${c?.balance_minor ?? 0} (promotional ${c?.promo_minor ?? 0}, credit limit ${c?.credit_limit_minor ?? 0}) minor units`,
  );
}
