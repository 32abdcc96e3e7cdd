import { GatewayError } from "@gateway/errors";
import type { Org, SetOrgBudgetRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg, toOrg } from "../orgs.js";

export function setOrgBudget(ctx: ControlContext) {
  return async (req: SetOrgBudgetRequest): Promise<Org> => {
    if (!Number.isSafeInteger(req.monthly_budget_minor) || req.monthly_budget_minor < 0) {
      throw new GatewayError("invalid_request", "monthly_budget_minor must be a non-negative integer (0 removes the cap)");
    }
    const org = await findOrg(ctx.db, req.org);
    const row = await ctx.db.updateTable("organizations").set({ monthly_budget_minor: req.monthly_budget_minor }).where("id", "=", org.id).returningAll().executeTakeFirstOrThrow();
    ctx.publishChange({ kind: "org", id: org.id });
    return toOrg(ctx.db, row);
  };
}
