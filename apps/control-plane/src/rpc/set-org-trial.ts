import type { Org, SetOrgTrialRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg, toOrg } from "../orgs.js";

/** Support override of the trial state; announced so every replica re-reads the org's keys. */
export function setOrgTrial(ctx: ControlContext) {
  return async (req: SetOrgTrialRequest): Promise<Org> => {
    const org = await findOrg(ctx.db, req.org);
    const row = await ctx.db.updateTable("organizations").set({ in_trial: req.in_trial }).where("id", "=", org.id).returningAll().executeTakeFirstOrThrow();
    ctx.publishChange({ kind: "org", id: org.id });
    return toOrg(ctx.db, row);
  };
}
