import { GatewayError } from "@gateway/errors";
import { TRACE_GRANT_TTL_MS, signTraceGrant, type ConsoleGrantTraceLookupRequest, type TraceLookupGrant } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { writeAudit } from "./console-audit.js";
import { operatorOf } from "./console-session.js";

/** A request id as the data-planes make them (`req_…`) or any trace id a caller pasted: printable, bounded. */
const TRACE_ID = /^[A-Za-z0-9_.:-]{1,128}$/;

/**
 * A grant to read one request's record whatever its organization (the ledger's LookupTrace; docs/
 * console.md, "Trace lookup"): only for an operator's live session, and only once the lookup is in
 * the audit log (`trace_looked_up`, the request id, who and when), so no cross-organization read
 * goes unrecorded — a lookup that then finds nothing is recorded all the same.
 */
export function consoleGrantTraceLookup(ctx: ControlContext) {
  return async (req: ConsoleGrantTraceLookupRequest): Promise<TraceLookupGrant> => {
    const operator = await operatorOf(ctx, req.token);
    const key = ctx.config.grantSigningKey;
    if (!key) throw new GatewayError("service_unavailable", "Trace lookups through the console are not configured: the control-plane has no CONTROL_PLANE_GRANT_SIGNING_KEY.");
    const requestId = req.request_id.trim();
    if (!TRACE_ID.test(requestId)) throw new GatewayError("invalid_request", "A trace id is 1 to 128 letters, digits or _ . : - (a request id such as req_…).");
    await writeAudit(ctx.db, operator, { org_id: null, action: "trace_looked_up", target: requestId });
    const { grant, claims } = signTraceGrant(key, { request_id: requestId, by: operator.email, exp_ms: Date.now() + TRACE_GRANT_TTL_MS });
    return { grant, expires_at_ms: claims.exp_ms };
  };
}
