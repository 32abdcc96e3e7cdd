import type { Lease } from "@gateway/proto";
import type { LeaseRow } from "../db/schema.js";

/** A lease as the RPCs answer it; `availableAfter`, what the organization (or the budget) had left after this grant. */
export function toLease(l: LeaseRow, availableAfter = 0): Lease {
  return {
    lease_id: l.id,
    org_id: l.org_id,
    granted_minor: l.granted_minor,
    remaining_minor: l.remaining_minor,
    expires_at_ms: l.expires_at.getTime(),
    status: l.status,
    holder: l.holder,
    applied_minor: l.applied_minor,
    created_at_ms: l.created_at.getTime(),
    available_after_minor: availableAfter,
    scope: l.scope,
    window_start_ms: l.window_start?.getTime() ?? 0,
  };
}
