import type { GatewayError } from "@gateway/errors";
import type { AcquireLeaseRequest, Lease, ReleaseLeaseRequest } from "@gateway/proto";

/** What leases are made of at the ledger: the calls, their targets and the budgets they hold (credits/lease-manager.ts, credits/dedicated-holds.ts). */

export interface LeaseLedger {
  acquire(req: AcquireLeaseRequest): Promise<Lease>;
  release(req: ReleaseLeaseRequest): Promise<Lease>;
}

/**
 * A budget a request is held under besides the credit (docs/billing.md, "Budgets"): its scope at
 * the ledger ("org", "key:…", "project:…", "user:…"), cap (minor units), window and the
 * organization's time zone. The replica leases each (organization, scope) as it leases credit.
 */
export interface BudgetClaim {
  scope: string;
  limitMinor: number;
  window: string;
  timeZone: string;
  /** Percentages of the cap whose crossing the ledger announces (docs/billing.md, "Alerts"). */
  alertPcts?: readonly number[];
}

/**
 * A budget a dedicated hold (a video job's) is held under: its lease at the ledger and the claim it
 * was made with, kept on the job so that a lease the ledger let go can be held again.
 */
export interface BudgetHold {
  lease_id: string;
  scope: string;
  limit_minor: number;
  window: string;
  time_zone: string;
  alert_pcts?: number[];
}

export const claimOf = (h: BudgetHold): BudgetClaim => ({ scope: h.scope, limitMinor: h.limit_minor, window: h.window, timeZone: h.time_zone, ...(h.alert_pcts ? { alertPcts: h.alert_pcts } : {}) });
export const holdOf = (c: BudgetClaim, leaseId: string): BudgetHold => ({
  lease_id: leaseId,
  scope: c.scope,
  limit_minor: c.limitMinor,
  window: c.window,
  time_zone: c.timeZone,
  ...(c.alertPcts?.length ? { alert_pcts: [...c.alertPcts] } : {}),
});

/** What a lease at the ledger holds: the organization's credit (under its monthly cap, 0 = none, for control-planes before budget windows) or one budget. */
export interface LeaseTarget {
  orgId: string;
  monthlyBudgetMinor: number;
  claim?: BudgetClaim;
  /** A credit lease's: the balances at or below which the ledger announces an alert. */
  balanceAlertsMinor?: readonly number[];
}

/** A budget's lease is its window's: a changed window or time zone opens another. */
export const keyOf = (t: LeaseTarget): string => (t.claim ? `${t.orgId}\u0000${t.claim.scope}\u0000${t.claim.window}\u0000${t.claim.timeZone}` : t.orgId);

/** The ledger's no: the balance or a budget cannot cover what was asked. */
export const isRefusal = (err: GatewayError): boolean => err.code === "insufficient_credits" || err.code === "budget_exceeded";

/** An AcquireLease call for the target: `leaseId` "" opens a lease, an id extends or renews it. */
export function acquireRequest(t: LeaseTarget, holder: string, ttlMs: number, leaseId: string, amount: number, min: number): AcquireLeaseRequest {
  return {
    org_id: t.orgId,
    lease_id: leaseId,
    holder,
    amount_minor: amount,
    min_amount_minor: min,
    ttl_ms: ttlMs,
    monthly_budget_minor: t.claim ? 0 : t.monthlyBudgetMinor,
    scope: t.claim?.scope ?? "",
    budget_limit_minor: t.claim?.limitMinor ?? 0,
    budget_window: t.claim?.window ?? "",
    time_zone: t.claim?.timeZone ?? "",
    alert_thresholds_pct: [...(t.claim?.alertPcts ?? [])],
    balance_alerts_minor: t.claim ? [] : [...(t.balanceAlertsMinor ?? [])],
    // A budget lease, or a credit lease whose holder does not know them, leaves the account's thresholds alone.
    keep_balance_alerts: t.claim !== undefined || t.balanceAlertsMinor === undefined,
    dedicated: false,
    demand_minor: 0,
  };
}
