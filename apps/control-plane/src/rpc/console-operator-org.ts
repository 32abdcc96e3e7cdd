import { GatewayError } from "@gateway/errors";
import type { ConsoleOperatorOrgRequest, ConsoleOperatorOrgView } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { toOrg } from "../orgs.js";
import { toApiKey } from "./keys.js";
import { operatorOf, toMember } from "./console-session.js";

/** An operator's page of one organization: the organization, its keys (never a secret) and its current members. */
export function consoleOperatorOrg(ctx: ControlContext) {
  return async (req: ConsoleOperatorOrgRequest): Promise<ConsoleOperatorOrgView> => {
    await operatorOf(ctx, req.token);
    const row = await ctx.db.selectFrom("organizations").selectAll().where("id", "=", req.org_id).executeTakeFirst();
    if (!row) throw new GatewayError("not_found", `organization '${req.org_id.slice(0, 80)}' does not exist`);
    const [org, keys, members] = await Promise.all([
      toOrg(ctx.db, row),
      ctx.db.selectFrom("api_keys").selectAll().where("org_id", "=", row.id).orderBy("created_at", "desc").execute(),
      ctx.db.selectFrom("console_members").select(["id", "org_id", "email", "role"]).where("org_id", "=", row.id).where("removed_at", "is", null).orderBy("email").execute(),
    ]);
    return { org, keys: keys.map(toApiKey), members: members.map(toMember) };
  };
}
