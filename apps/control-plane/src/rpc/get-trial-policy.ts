import { createHash } from "node:crypto";
import type { TrialPolicy } from "@gateway/proto";
import type { ControlContext } from "../context.js";

/** Hex SHA-256 of the canonical JSON (sorted keys, sorted allowlist, no spaces) of the policy's content. */
export function policyHash(p: { scope: string; allowed_models: string[]; unlock_topup_minor: number }): string {
  const canonical = JSON.stringify({ allowed_models: [...p.allowed_models].sort(), scope: p.scope, unlock_topup_minor: p.unlock_topup_minor });
  return createHash("sha256").update(canonical).digest("hex");
}

export async function loadTrialPolicy(ctx: ControlContext): Promise<TrialPolicy> {
  const p = await ctx.db.selectFrom("trial_policy").selectAll().where("id", "=", 1).executeTakeFirstOrThrow();
  const allowed = [...p.allowed_models].sort();
  return { version: p.version, scope: p.scope, allowed_models: allowed, unlock_topup_minor: p.unlock_topup_minor, policy_hash: policyHash({ ...p, allowed_models: allowed }) };
}

export function getTrialPolicy(ctx: ControlContext) {
  return async (): Promise<TrialPolicy> => loadTrialPolicy(ctx);
}
