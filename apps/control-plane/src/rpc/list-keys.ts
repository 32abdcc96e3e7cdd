import type { ListKeysRequest, ListKeysResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg } from "../orgs.js";
import { toApiKey } from "./keys.js";

export function listKeys(ctx: ControlContext) {
  return async (req: ListKeysRequest): Promise<ListKeysResponse> => {
    const org = await findOrg(ctx.db, req.org);
    const rows = await ctx.db.selectFrom("api_keys").selectAll().where("org_id", "=", org.id).orderBy("created_at", "desc").execute();
    return { keys: rows.map(toApiKey) };
  };
}
