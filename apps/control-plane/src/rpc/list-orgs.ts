import type { ListOrgsResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { toOrgs } from "../orgs.js";

export function listOrgs(ctx: ControlContext) {
  return async (): Promise<ListOrgsResponse> => ({ orgs: await toOrgs(ctx.db, await ctx.db.selectFrom("organizations").selectAll().orderBy("created_at").execute()) });
}
