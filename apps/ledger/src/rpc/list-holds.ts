import { GatewayError } from "@gateway/errors";
import type { ListHoldsRequest, ListHoldsResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { toLease } from "../leases/to-lease.js";

/** An org's leases: every open one, then the 50 most recent closed ones. */
export function listHolds(ctx: LedgerContext) {
  return async (req: ListHoldsRequest): Promise<ListHoldsResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const [open, closed] = await Promise.all([
      ctx.db.selectFrom("leases").selectAll().where("org_id", "=", req.org_id).where("status", "=", "open").orderBy("created_at", "desc").execute(),
      ctx.db.selectFrom("leases").selectAll().where("org_id", "=", req.org_id).where("status", "!=", "open").orderBy("created_at", "desc").limit(50).execute(),
    ]);
    return { leases: [...open, ...closed].map(toLease) };
  };
}
