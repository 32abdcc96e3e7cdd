import { GatewayError } from "@gateway/errors";
import { verifyTraceGrant, type LookupTraceRequest, type UsageRecord } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import { toRecord } from "./get-usage.js";

/**
 * LookupTrace: the console operator's read of one request's record whatever its organization
 * (docs/console.md, "Trace lookup"), only with a grant the control-plane signed for this request id
 * after checking the operator's session and writing the lookup to its audit log. The console's
 * token alone reads no other organization's record (GetUsage always names one).
 */
export function lookupTrace(ctx: LedgerContext) {
  return async (req: LookupTraceRequest): Promise<UsageRecord> => {
    const key = ctx.config.grantPublicKey;
    if (!key) throw new GatewayError("forbidden", "trace lookups through the console need LEDGER_GRANT_PUBLIC_KEY (the control-plane's grant key)");
    if (!req.grant) throw new GatewayError("forbidden", "a trace lookup needs an operator's grant");
    // A minute's grant, checked with a few seconds' allowance for the clocks.
    const claims = verifyTraceGrant(key, req.grant, Date.now() - 5_000);
    if (typeof claims === "string") throw new GatewayError("forbidden", `trace lookup refused: ${claims}`);
    if (claims.request_id !== req.request_id) throw new GatewayError("forbidden", "trace lookup refused: the grant names another request");
    // Every month's partition has a request id index.
    const row = await ctx.db.selectFrom("usage_records").selectAll().where("request_id", "=", req.request_id).executeTakeFirst();
    if (!row) throw new GatewayError("not_found", `No record of request '${req.request_id.slice(0, 80)}' in any organization.`);
    return toRecord(row);
  };
}
