import { GatewayError } from "@gateway/errors";
import type { SetTrialPolicyRequest, TrialPolicy } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { loadTrialPolicy } from "./get-trial-policy.js";

/** Replaces the trial policy (chat models only); the version bumps only when the content changes. */
export function setTrialPolicy(ctx: ControlContext) {
  return async (req: SetTrialPolicyRequest): Promise<TrialPolicy> => {
    if (!Number.isSafeInteger(req.unlock_topup_minor) || req.unlock_topup_minor < 0) {
      throw new GatewayError("invalid_request", "unlock_topup_minor must be a non-negative integer");
    }
    const allowed = [...new Set(req.allowed_models.map((m) => m.trim()).filter(Boolean))].sort();
    if (allowed.length) {
      const rows = await ctx.db.selectFrom("models").select(["id", "routes"]).where("id", "in", allowed).execute();
      for (const id of allowed) {
        const m = rows.find((r) => r.id === id);
        if (!m) throw new GatewayError("not_found", `allowed_models: model '${id}' is not in the catalog`);
        if (!m.routes.includes("chat")) throw new GatewayError("invalid_request", `allowed_models: model '${id}' does not serve chat (the trial scope)`);
      }
    }
    const current = await loadTrialPolicy(ctx);
    const same = current.unlock_topup_minor === req.unlock_topup_minor && JSON.stringify(current.allowed_models) === JSON.stringify(allowed);
    if (same) return current;
    await ctx.db
      .updateTable("trial_policy")
      .set((eb) => ({ version: eb("version", "+", 1), allowed_models: allowed, unlock_topup_minor: req.unlock_topup_minor }))
      .where("id", "=", 1)
      .execute();
    ctx.publishChange({ kind: "trial_policy" });
    return loadTrialPolicy(ctx);
  };
}
