import { GatewayError } from "@gateway/errors";
import type { Org, SetOrgBudgetsRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import type { OrganizationsTable } from "../db/schema.js";
import type { Updateable } from "kysely";
import { budgetWindow, endUserSource, limitMinor, timeZone } from "../budgets/rules.js";
import { findOrg, toOrg } from "../orgs.js";

/**
 * The organization's budget settings (docs/billing.md, "Budgets"): its time zone, its cap and window
 * (monthly_budget_minor is the cap, whatever its window), where its end users are read and their
 * default cap. A field left out keeps its value. Every replica's key cache hears the change (an org
 * change event).
 */
export function setOrgBudgets(ctx: ControlContext) {
  return async (req: SetOrgBudgetsRequest): Promise<Org> => {
    const set: Updateable<OrganizationsTable> = {};
    if (req.time_zone !== undefined) set.time_zone = timeZone(req.time_zone);
    if (req.limit_minor !== undefined) set.monthly_budget_minor = limitMinor(req.limit_minor, "limit_minor");
    if (req.window !== undefined) set.budget_window = budgetWindow(req.window, "window");
    if (req.end_user_source !== undefined) set.end_user_source = endUserSource(req.end_user_source);
    if (req.end_user_limit_minor !== undefined) set.end_user_budget_minor = limitMinor(req.end_user_limit_minor, "end_user_limit_minor");
    if (req.end_user_window !== undefined) set.end_user_budget_window = budgetWindow(req.end_user_window, "end_user_window");
    if (Object.keys(set).length === 0) {
      throw new GatewayError("invalid_request", "nothing to change: give time_zone, limit_minor, window, end_user_source, end_user_limit_minor or end_user_window");
    }
    const org = await findOrg(ctx.db, req.org);
    const row = await ctx.db.updateTable("organizations").set(set).where("id", "=", org.id).returningAll().executeTakeFirstOrThrow();
    ctx.publishChange({ kind: "org", id: org.id });
    return toOrg(ctx.db, row);
  };
}
