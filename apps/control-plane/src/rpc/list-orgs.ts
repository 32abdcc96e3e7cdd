import type { ListOrgsResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";

export function listOrgs(ctx: ControlContext) {
  return async (): Promise<ListOrgsResponse> => {
    const [orgs, enabled] = await Promise.all([
      ctx.db.selectFrom("organizations").selectAll().orderBy("created_at").execute(),
      ctx.db.selectFrom("org_models").selectAll().orderBy("model_id").execute(),
    ]);
    return {
      orgs: orgs.map((o) => ({
        id: o.id,
        name: o.name,
        in_trial: o.in_trial,
        created_at_ms: o.created_at.getTime(),
        monthly_budget_minor: o.monthly_budget_minor,
        enabled_models: enabled.filter((e) => e.org_id === o.id).map((e) => e.model_id),
      })),
    };
  };
}
