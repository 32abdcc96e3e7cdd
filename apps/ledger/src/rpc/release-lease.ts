import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { Lease, ReleaseLeaseRequest } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { LeaseRow } from "../db/schema.js";
import { lockAccount, releaseHeld } from "../accounts.js";
import { releaseBudgetHeld } from "../leases/budget-lease.js";
import { toLease } from "../leases/to-lease.js";

/**
 * Closes a lease. What the holder consumed but the ledger has not applied yet stays held (those
 * usage events are on their way) until they are applied, or until the consumer has applied
 * everything published before the release (settle_after); the rest is released now. Idempotent.
 */
export function releaseLease(ctx: LedgerContext) {
  return async (req: ReleaseLeaseRequest): Promise<Lease> => {
    if (!req.lease_id) throw new GatewayError("invalid_request", "lease_id is required");
    if (req.consumed_minor < 0) throw new GatewayError("invalid_request", "consumed_minor must not be negative");
    return ctx.db.transaction().execute(async (trx) => {
      const peek = await sql<LeaseRow>`SELECT org_id, holder FROM leases WHERE id = ${req.lease_id}`.execute(trx);
      const orgId = peek.rows[0]?.org_id;
      // Another organization's lease is not found, as one that does not exist. A data-plane of the
      // previous release names no organization (a rolling upgrade): its release is taken as before.
      if (!orgId || (req.org_id && orgId !== req.org_id)) throw new GatewayError("not_found", `lease ${req.lease_id} does not exist${req.org_id ? ` for organization ${req.org_id}` : ""}`);
      if (req.holder && peek.rows[0]!.holder !== req.holder) throw new GatewayError("forbidden", `lease ${req.lease_id} is held by another replica`);
      await lockAccount(trx, orgId); // account before lease: the same lock order as usage application
      const lease = (await sql<LeaseRow>`SELECT * FROM leases WHERE id = ${req.lease_id} FOR UPDATE`.execute(trx)).rows[0]!;
      if (lease.status !== "open") return toLease(lease);
      const outstanding = Math.max(0, req.consumed_minor - lease.applied_minor);
      const keep = Math.min(lease.remaining_minor, outstanding);
      // A budget lease's hold is its window's; a credit lease's, the account's.
      if (lease.scope) await releaseBudgetHeld(trx, lease, lease.remaining_minor - keep);
      else await releaseHeld(trx, orgId, lease.remaining_minor - keep);
      const r = await sql<LeaseRow>`
        UPDATE leases SET remaining_minor = ${keep}, status = 'released', released_at = now(),
          settle_after = now() + make_interval(secs => ${ctx.config.settleSkewMs / 1000})
        WHERE id = ${lease.id} RETURNING *`.execute(trx);
      return toLease(r.rows[0]!);
    });
  };
}
