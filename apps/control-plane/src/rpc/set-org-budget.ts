import { GatewayError } from "@gateway/errors";
import type { Org, SetOrgBudgetRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { setOrgBudgets } from "./set-org-budgets.js";

/** The monthly cap of the release before windows: the organization's limit, its window "month". */
export function setOrgBudget(ctx: ControlContext) {
  return (req: SetOrgBudgetRequest): Promise<Org> => {
    if (!Number.isSafeInteger(req.monthly_budget_minor) || req.monthly_budget_minor < 0) {
      throw new GatewayError("invalid_request", "monthly_budget_minor must be a non-negative integer (0 removes the cap)");
    }
    return setOrgBudgets(ctx)({ org: req.org, limit_minor: req.monthly_budget_minor, window: "month" });
  };
}
