import { GatewayError } from "@gateway/errors";
import type { ListAdjustmentsRequest, ListAdjustmentsResponse } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { toAdjustment } from "../adjustments/adjust.js";

/** An organization's adjustments, newest first (at most 1,000). */
export function listAdjustments(ctx: LedgerContext) {
  return async (req: ListAdjustmentsRequest): Promise<ListAdjustmentsResponse> => {
    if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
    const limit = req.limit === 0 ? 100 : req.limit;
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > 1_000) throw new GatewayError("invalid_request", "limit must be from 1 to 1000");
    const rows = await ctx.db.selectFrom("adjustments").selectAll().where("org_id", "=", req.org_id).orderBy("created_at", "desc").orderBy("id", "desc").limit(limit).execute();
    return { adjustments: rows.map(toAdjustment) };
  };
}
