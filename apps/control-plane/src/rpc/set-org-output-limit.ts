import { GatewayError } from "@gateway/errors";
import type { Org, SetOrgOutputLimitRequest } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg, toOrg } from "../orgs.js";

/**
 * What a request asking for more output than its model allows gets (docs/agents.md, "Output
 * limits"): `clamp` (the default) the model's limit, said in `x-gateway-clamped`; `strict` a 400
 * naming the field. Every replica's key cache hears the change (an org change event).
 */
export function setOrgOutputLimit(ctx: ControlContext) {
  return async (req: SetOrgOutputLimitRequest): Promise<Org> => {
    if (req.output_limit !== "clamp" && req.output_limit !== "strict") throw new GatewayError("invalid_request", "output_limit must be 'clamp' or 'strict'");
    const org = await findOrg(ctx.db, req.org);
    const row = await ctx.db.updateTable("organizations").set({ output_limit: req.output_limit }).where("id", "=", org.id).returningAll().executeTakeFirstOrThrow();
    ctx.publishChange({ kind: "org", id: org.id });
    return toOrg(ctx.db, row);
  };
}
