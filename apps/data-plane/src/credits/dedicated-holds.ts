import { GatewayError } from "@gateway/errors";
import type { Logger } from "@gateway/observability";
import type { Lease } from "@gateway/proto";
import type { Reservation } from "./lease-manager.js";
import { acquireRequest, claimOf, holdOf, isRefusal, keyOf, type BudgetClaim, type BudgetHold, type LeaseLedger, type LeaseTarget } from "./lease-request.js";

export interface DedicatedHoldsOptions {
  holder: string;
  ttlMs: number;
  /** Hands back the replica's own idle leases of these targets (LeaseManager); whether that made room. */
  handBackIdle(keys: readonly string[]): Promise<boolean>;
  /** How many hand-backs have ended: one that ended while a hold was being refused made room for it too. */
  handBacks(): number;
}

/**
 * Leases of their own for work that outlives the request (a video job): exactly what the work may
 * cost, held at the ledger under the credit and each budget the work is under, renewed and released
 * by whichever replica handles the work later (video/holds.ts, video/jobs.ts). Nothing of them is
 * kept locally: the work's record keeps their ids.
 */
export class DedicatedHolds {
  constructor(
    private readonly ledger: LeaseLedger,
    private readonly log: Logger,
    private readonly opts: DedicatedHoldsOptions,
  ) {}

  /**
   * `amount` held in a credit lease of its own, and one dedicated budget lease of `amount` per budget
   * the work is under (all or none: a refusal gives back what was granted). A refusal is retried once
   * after the replica handed back what its own idle leases hold of that credit or those budgets —
   * or after another hold's hand-back ended while this one was asked for: concurrent jobs refused
   * at once all retry into the room one of them made (otherwise only the one that found the idle
   * leases would, and the others be refused with room to spare).
   */
  async hold(orgId: string, amount: number, monthlyBudgetMinor = 0, balanceAlertsMinor?: readonly number[], claims: readonly BudgetClaim[] = []): Promise<Reservation> {
    const seen = this.opts.handBacks();
    try {
      return await this.tryHold(orgId, amount, monthlyBudgetMinor, balanceAlertsMinor, claims);
    } catch (err) {
      if (!(err instanceof GatewayError && isRefusal(err))) throw err;
      const room = await this.opts.handBackIdle([orgId, ...claims.map((claim) => keyOf({ orgId, monthlyBudgetMinor: 0, claim }))]);
      if (!room && this.opts.handBacks() === seen) throw err;
      return this.tryHold(orgId, amount, monthlyBudgetMinor, balanceAlertsMinor, claims);
    }
  }

  private async tryHold(orgId: string, amount: number, monthlyBudgetMinor: number, balanceAlertsMinor: readonly number[] | undefined, claims: readonly BudgetClaim[]): Promise<Reservation> {
    const need = Math.max(1, amount);
    const credit: LeaseTarget = { orgId, monthlyBudgetMinor, ...(balanceAlertsMinor ? { balanceAlertsMinor } : {}) };
    const got = await Promise.allSettled([
      this.ledger.acquire(acquireRequest(credit, this.opts.holder, this.opts.ttlMs, "", need, need)),
      ...claims.map((claim) => this.acquireBudget(orgId, claim, need)),
    ]);
    const refused = got.find((g): g is PromiseRejectedResult => g.status === "rejected");
    if (refused) {
      await Promise.all(got.map((g) => (g.status === "fulfilled" ? this.releaseQuietly(orgId, g.value.lease_id) : undefined)));
      // A refusal is the ledger's error as the caller sees it (its context is kept across gRPC): the
      // credit's first, else the first budget's that refused.
      throw got.map((g) => (g.status === "rejected" ? g.reason : undefined)).find((e) => e instanceof GatewayError && isRefusal(e)) ?? refused.reason;
    }
    const leases = got.map((g) => (g as PromiseFulfilledResult<Lease>).value.lease_id);
    const [leaseId, ...budgetLeaseIds] = leases as [string, ...string[]];
    let kept = false;
    let settled = false;
    return {
      leaseId,
      budgetLeaseIds,
      budgetHolds: claims.map((c, i) => holdOf(c, budgetLeaseIds[i]!)),
      amount,
      keep: () => {
        kept = true;
      },
      settle: () => {
        if (kept || settled) return;
        settled = true;
        for (const id of leases) void this.releaseQuietly(orgId, id);
      },
    };
  }

  /** A budget held again for work whose budget lease the ledger let go: a new lease of `amount` in the window current now. */
  async holdBudget(orgId: string, hold: BudgetHold, amount: number): Promise<BudgetHold> {
    const claim = claimOf(hold);
    return holdOf(claim, (await this.acquireBudget(orgId, claim, Math.max(1, amount))).lease_id);
  }

  private acquireBudget(orgId: string, claim: BudgetClaim, amount: number): Promise<Lease> {
    return this.ledger.acquire({ ...acquireRequest({ orgId, monthlyBudgetMinor: 0, claim }, this.opts.holder, this.opts.ttlMs, "", amount, amount), dedicated: true });
  }

  private releaseQuietly(orgId: string, leaseId: string): Promise<void> {
    return this.release(orgId, leaseId, 0).catch((err: unknown) => this.log.warn({ err, lease_id: leaseId }, "dedicated hold release failed; the ledger expires it"));
  }

  /**
   * Renews a dedicated lease for another lifetime (nothing added). "gone" when the ledger no longer
   * has it open (it expired, or was released): its hold is no longer the work's, and the caller must
   * hold again or stop the work. Other failures (the ledger away) throw: the hold may still be there.
   */
  async renew(orgId: string, leaseId: string): Promise<"renewed" | "gone"> {
    try {
      await this.ledger.acquire(acquireRequest({ orgId, monthlyBudgetMinor: 0 }, this.opts.holder, this.opts.ttlMs, leaseId, 0, 0));
      return "renewed";
    } catch (err) {
      if (err instanceof GatewayError && err.code === "not_found") return "gone";
      throw err;
    }
  }

  /**
   * Closes a dedicated lease: `consumedMinor` is what its usage event (already acknowledged by
   * JetStream, or none) bills against it; the ledger keeps that much held until the event is
   * applied. A lease the ledger closed already (expired) is fine: its hold settles by the ledger's rules.
   */
  async release(orgId: string, leaseId: string, consumedMinor: number): Promise<void> {
    await this.ledger.release({ lease_id: leaseId, consumed_minor: consumedMinor, org_id: orgId, holder: "" }).catch((err: unknown) => {
      if (!(err instanceof GatewayError && err.code === "not_found")) throw err;
    });
  }
}
