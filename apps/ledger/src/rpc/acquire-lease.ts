import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { AcquireLeaseRequest, Lease } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { LeaseRow } from "../db/schema.js";
import { lockAccount, monthSpent } from "../accounts.js";
import { newId } from "../ids.js";
import { acquireBudgetLease } from "../leases/budget-lease.js";
import { toLease } from "../leases/to-lease.js";
import { grantOf } from "../leases/grant.js";

/** The balances (minor units) at or below which the organization is alerted: positive, each once, highest first, at most 10. */
function balanceAlerts(req: AcquireLeaseRequest): number[] {
  return [...new Set((req.balance_alerts_minor ?? []).map(Number).filter((v) => Number.isSafeInteger(v) && v > 0))].sort((a, b) => b - a).slice(0, 10);
}

const amount = (v: number | undefined): boolean => v === undefined || (Number.isSafeInteger(v) && v >= 0);

function validate(req: AcquireLeaseRequest): void {
  if (!req.org_id) throw new GatewayError("invalid_request", "org_id is required");
  if (!amount(req.amount_minor) || !amount(req.min_amount_minor) || !amount(req.monthly_budget_minor) || !amount(Number(req.demand_minor ?? 0))) {
    throw new GatewayError("invalid_request", "amounts must be non-negative integers (minor units)");
  }
  if (!Number.isSafeInteger(req.ttl_ms)) throw new GatewayError("invalid_request", "ttl_ms must be an integer");
  // An empty lease holds nothing and would only linger until it expires.
  if (!req.lease_id && req.amount_minor === 0) throw new GatewayError("invalid_request", "amount_minor must be positive to open a lease");
  if (req.min_amount_minor > req.amount_minor && req.amount_minor > 0) {
    throw new GatewayError("invalid_request", "min_amount_minor must not exceed amount_minor");
  }
}

/**
 * Opens or extends a credit lease. The account row is locked, so concurrent grants for one org are
 * serialized and their sum never exceeds balance + credit limit − held. A renewal that asks for nothing (a video
 * job's hold kept alive, an idle lease's lifetime) moves no credit: it locks the lease alone, so one
 * organization's renewals do not queue behind each other on its account row.
 */
export function acquireLease(ctx: LedgerContext) {
  return async (req: AcquireLeaseRequest): Promise<Lease> => {
    validate(req);
    const ttl = req.ttl_ms > 0 ? Math.min(req.ttl_ms, ctx.config.leaseMaxTtlMs) : ctx.config.leaseMaxTtlMs;
    const expiresAt = new Date(Date.now() + ttl);
    if (req.lease_id && req.amount_minor === 0) return renew(ctx, req, expiresAt);
    if (req.scope) return acquireBudgetLease(ctx, req, ttl);
    return ctx.db.transaction().execute(async (trx) => {
      const account = await lockAccount(trx, req.org_id);
      let lease: LeaseRow | undefined;
      if (req.lease_id) {
        const r = await sql<LeaseRow>`SELECT * FROM leases WHERE id = ${req.lease_id} FOR UPDATE`.execute(trx);
        lease = r.rows[0];
        if (!lease || lease.org_id !== req.org_id || lease.status !== "open" || lease.expires_at.getTime() <= Date.now()) {
          throw new GatewayError("not_found", `lease ${req.lease_id} is not open`);
        }
      }
      // A postpaid organization may go to −credit_limit (docs/billing.md, "Adjustments"): it holds against that too.
      const available = account.balance_minor + Number(account.credit_limit_minor) - account.held_minor;
      const wanted = req.amount_minor;
      if (wanted > 0 && (available < req.min_amount_minor || available <= 0)) {
        ctx.metrics.leaseRefusals.inc({ reason: "insufficient_credits" });
        throw new GatewayError(
          "insufficient_credits",
          `Your organization's credit balance is too low for this request (available ${Math.max(0, available)}, needed ${req.min_amount_minor} minor units).`,
          { action: "top_up" },
        );
      }
      // The need in full; beyond it, at most a quarter of what is available, so one replica's
      // lease does not strand a small balance that other replicas need.
      let grant = grantOf(req, available);
      const budget = req.monthly_budget_minor ?? 0;
      if (budget > 0 && wanted > 0) {
        // Held credit may all be spent this month: count it against the cap (conservative).
        const budgetLeft = budget - (await monthSpent(trx, req.org_id)) - account.held_minor;
        if (budgetLeft < req.min_amount_minor || budgetLeft <= 0) {
          ctx.metrics.leaseRefusals.inc({ reason: "budget_exceeded" });
          throw new GatewayError("budget_exceeded", `Your organization's monthly budget is reached (${Math.max(0, budgetLeft)} left of ${budget}, needed ${req.min_amount_minor} minor units).`, {
            action: "contact_org_admin",
          });
        }
        grant = Math.min(grant, budgetLeft);
      }
      // The balance thresholds as the control-plane states them now (docs/billing.md, "Alerts").
      const thresholds = balanceAlerts(req);
      const thresholdsChanged = !req.keep_balance_alerts && thresholds.join(",") !== (account.balance_alerts_minor ?? []).map(Number).join(",");
      if (grant > 0 || thresholdsChanged) {
        await sql`
          UPDATE accounts SET held_minor = held_minor + ${grant}, updated_at = now()${thresholdsChanged ? sql`, balance_alerts_minor = ${thresholds}::bigint[]` : sql``}
          WHERE org_id = ${req.org_id}`.execute(trx);
        ctx.metrics.leasesGranted.inc(grant);
      }
      if (lease) {
        const r = await sql<LeaseRow>`
          UPDATE leases SET granted_minor = granted_minor + ${grant}, remaining_minor = remaining_minor + ${grant}, expires_at = ${expiresAt}
          WHERE id = ${lease.id} RETURNING *`.execute(trx);
        return toLease(r.rows[0]!, available - grant);
      }
      const r = await sql<LeaseRow>`
        INSERT INTO leases (id, org_id, holder, granted_minor, remaining_minor, status, expires_at)
        VALUES (${newId("lease")}, ${req.org_id}, ${req.holder || "unknown"}, ${grant}, ${grant}, 'open', ${expiresAt})
        RETURNING *`.execute(trx);
      return toLease(r.rows[0]!, available - grant);
    });
  };
}

/**
 * A lease's lifetime extended, nothing added: one statement on the lease's row (the sweeper and the
 * apply lock it too, so an expiry or a release either comes first, and the lease is not open, or
 * after). What the organization has available is read without a lock: it is what the answer says, not
 * what anything is decided on.
 */
async function renew(ctx: LedgerContext, req: AcquireLeaseRequest, expiresAt: Date): Promise<Lease> {
  const r = await sql<LeaseRow>`
    UPDATE leases SET expires_at = LEAST(${expiresAt}::timestamptz, coalesce(window_end, 'infinity'))
    WHERE id = ${req.lease_id} AND org_id = ${req.org_id} AND status = 'open' AND expires_at > ${new Date()}
    RETURNING *`.execute(ctx.db);
  const lease = r.rows[0];
  if (!lease) throw new GatewayError("not_found", `lease ${req.lease_id} is not open`);
  const a = await sql<{ available: string }>`SELECT balance_minor + credit_limit_minor - held_minor AS available FROM accounts WHERE org_id = ${req.org_id}`.execute(ctx.db);
  return toLease(lease, Number(a.rows[0]?.available ?? 0));
}
