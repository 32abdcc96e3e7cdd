import { GatewayError } from "@gateway/errors";
import type { Credits, GetCreditsRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { monthSpent, toCredits } from "../accounts.js";

export function getCredits(ctx: LedgerContext) {
  return async (req: GetCreditsRequest): Promise<Credits> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const a = await ctx.db.selectFrom("accounts").selectAll().where("org_id", "=", req.org_id).executeTakeFirst();
    return toCredits(req.org_id, a, await monthSpent(ctx.db, req.org_id));
  };
}
