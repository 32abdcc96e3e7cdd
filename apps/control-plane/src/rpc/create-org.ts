import { GatewayError } from "@gateway/errors";
import type { CreateOrgRequest, Org } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { newId } from "../keys/secret.js";
import { toOrg } from "../orgs.js";

export function createOrg(ctx: ControlContext) {
  return async (req: CreateOrgRequest): Promise<Org> => {
    const name = req.name.trim();
    if (name.length < 1 || name.length > 128) throw new GatewayError("invalid_request", "name must be 1 to 128 characters");
    if (name.startsWith("org_")) throw new GatewayError("invalid_request", "name must not start with 'org_' (reserved for ids)");
    const row = await ctx.db
      .insertInto("organizations")
      .values({ id: newId("org"), name })
      .onConflict((oc) => oc.column("name").doNothing())
      .returningAll()
      .executeTakeFirst();
    if (!row) throw new GatewayError("already_exists", `an organization named '${name}' already exists`);
    return toOrg(ctx.db, row);
  };
}
