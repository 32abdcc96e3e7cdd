import { GatewayError } from "@gateway/errors";
import type { Logger } from "@gateway/observability";
import type { AcquireLeaseRequest, Lease, ReleaseLeaseRequest } from "@gateway/proto";

export interface LeaseLedger {
  acquire(req: AcquireLeaseRequest): Promise<Lease>;
  release(req: ReleaseLeaseRequest): Promise<Lease>;
}

export interface LeaseManagerOptions {
  holder: string;
  /** Credit asked for at a time beyond what a request needs, minor units. */
  chunkMinor: number;
  ttlMs: number;
  idleMs: number;
  maxOrgs: number;
  now?: () => number;
  /**
   * Usage events of this replica not yet acknowledged by JetStream (spooled). While there are any,
   * no lease is released: the ledger would settle a released lease's hold once its consumer caught
   * up with the stream, before those events reach it. Retired leases are renewed instead.
   */
  unpublished?: () => number;
}

/** One lease at the ledger, sub-allocated locally. All amounts in minor credit units. */
class LeaseState {
  granted = 0;
  /** Sum of maximum costs of requests in flight. */
  reserved = 0;
  /** Sum of actual costs of finished requests (their usage events carry this lease id). */
  consumed = 0;
  inflight = 0;
  closed = false;
  /** The org had little credit left at the ledger: hand the lease back as soon as it is idle. */
  tight = false;
  constructor(
    readonly id: string,
    public expiresAt: number,
    public lastUsed: number,
  ) {}
  get available(): number {
    return this.granted - this.reserved - this.consumed;
  }
}

/** A request's slice of a lease: settle it exactly once with the actual cost. */
export interface Reservation {
  readonly leaseId: string;
  readonly amount: number;
  settle(actualCostMinor: number): void;
  /**
   * Holds `more` on top (a stream's next output tranche, pipeline/tranches.ts): from the same lease,
   * locally when it has the credit, else by extending that lease at the ledger. False when the
   * balance or the budget cannot cover it, the lease was replaced meanwhile, or the ledger did not
   * answer: the caller stops the work. A lease's own reservations only (not a dedicated hold's).
   */
  grow?(more: number, monthlyBudgetMinor: number): boolean | Promise<boolean>;
  /**
   * A dedicated hold's only: the hold now belongs to what the request made (a video job, billed
   * when it completes), so settling the request leaves it in place. Not kept, the runner's settle
   * releases it (the request made nothing that could be billed against it).
   */
  keep?(): void;
}

/**
 * Credit admission without a ledger round trip per request. A replica leases a chunk of an org's
 * balance from the ledger (the ledger never grants more than balance − held) and reserves each
 * request's maximum cost from it locally; the usage event settles the actual cost against the
 * lease at the ledger. Spend stays within the balance across any number of replicas; the only
 * margin is a request whose actual cost exceeds its reserved maximum (see docs/billing.md).
 */
export class LeaseManager {
  private readonly orgs = new Map<string, LeaseState>();
  private readonly acquiring = new Map<string, Promise<LeaseState>>();
  /** Leases replaced while requests were still in flight; released when those finish. */
  private readonly retiring = new Set<{ orgId: string; state: LeaseState }>();
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;

  constructor(
    private readonly ledger: LeaseLedger,
    private readonly log: Logger,
    private readonly opts: LeaseManagerOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  start(): void {
    const every = Math.max(100, Math.min(this.opts.idleMs, this.opts.ttlMs / 4));
    this.timer = setInterval(() => void this.maintain(), every);
    this.timer.unref();
  }

  /**
   * The reservation when the replica's lease covers `amount` now, without a promise; undefined when
   * only `reserve` (which may extend the lease at the ledger) can answer.
   */
  reserveLocal(orgId: string, amount: number): Reservation | undefined {
    // Check and reserve in one synchronous step: no await between them, so concurrent requests
    // can never reserve the same credit twice.
    const state = this.orgs.get(orgId);
    if (state && !state.closed && state.expiresAt - this.now() >= 1_000 && state.available >= amount) return this.take(orgId, state, amount);
    return undefined;
  }

  /** Reserves `amount` for one request; throws insufficient_credits, budget_exceeded or service_unavailable. */
  async reserve(orgId: string, amount: number, monthlyBudgetMinor = 0): Promise<Reservation> {
    for (let attempt = 0; ; attempt++) {
      const local = this.reserveLocal(orgId, amount);
      if (local) return local;
      if (attempt >= 8) {
        // Others keep taking what each extension adds: the org's credit is spoken for.
        throw new GatewayError("insufficient_credits", "Your organization's credit balance is too low for this request.", { action: "top_up" });
      }
      await this.extend(orgId, amount, monthlyBudgetMinor);
    }
  }

  /**
   * A lease of its own for work that outlives the request (a video job): exactly `amount` held at
   * the ledger, renewed and released by whichever replica handles the job later.
   */
  async holdDedicated(orgId: string, amount: number, monthlyBudgetMinor = 0): Promise<Reservation> {
    // A refusal is the ledger's error as the caller sees it (its context is kept across gRPC).
    const lease = await this.ledger.acquire({
      org_id: orgId,
      lease_id: "",
      holder: this.opts.holder,
      amount_minor: Math.max(1, amount),
      min_amount_minor: Math.max(1, amount),
      ttl_ms: this.opts.ttlMs,
      monthly_budget_minor: monthlyBudgetMinor,
    });
    let kept = false;
    let settled = false;
    return {
      leaseId: lease.lease_id,
      amount,
      keep: () => {
        kept = true;
      },
      settle: () => {
        if (kept || settled) return;
        settled = true;
        this.releaseDedicated(orgId, lease.lease_id, 0).catch((err: unknown) => this.log.warn({ err, lease_id: lease.lease_id }, "dedicated hold release failed; the ledger expires it"));
      },
    };
  }

  /**
   * Renews a dedicated lease for another lifetime (nothing added). "gone" when the ledger no longer
   * has it open (it expired, or was released): its hold is no longer the job's, and the caller must
   * hold again or stop the work. Other failures (the ledger away) throw: the hold may still be there.
   */
  async renewDedicated(orgId: string, leaseId: string): Promise<"renewed" | "gone"> {
    try {
      await this.ledger.acquire({ org_id: orgId, lease_id: leaseId, holder: this.opts.holder, amount_minor: 0, min_amount_minor: 0, ttl_ms: this.opts.ttlMs, monthly_budget_minor: 0 });
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
  async releaseDedicated(orgId: string, leaseId: string, consumedMinor: number): Promise<void> {
    await this.ledger.release({ lease_id: leaseId, consumed_minor: consumedMinor, org_id: orgId, holder: "" }).catch((err: unknown) => {
      if (!(err instanceof GatewayError && err.code === "not_found")) throw err;
    });
  }

  private take(orgId: string, s: LeaseState, amount: number): Reservation {
    s.reserved += amount;
    s.inflight++;
    s.lastUsed = this.now();
    let settled = false;
    let held = amount;
    const usable = () => !settled && !s.closed && this.orgs.get(orgId) === s && s.expiresAt - this.now() >= 1_000;
    const add = (more: number) => {
      s.reserved += more;
      held += more;
      return true;
    };
    return {
      leaseId: s.id,
      get amount() {
        return held;
      },
      settle: (actual: number) => {
        if (settled) return;
        settled = true;
        s.reserved -= held;
        s.consumed += actual;
        s.inflight--;
        s.lastUsed = this.now();
        if (s.tight && s.inflight === 0) this.handBack(s);
      },
      grow: (more: number, budget: number) => {
        if (!usable()) return false;
        // Checked and taken in one synchronous step, as reserveLocal does.
        if (s.available >= more) return add(more);
        return this.extend(orgId, more, budget).then(
          () => usable() && s.available >= more && add(more),
          () => false,
        );
      },
    };
  }

  /** Returns an idle tight lease now rather than after the idle period. */
  private handBack(s: LeaseState): void {
    for (const [orgId, state] of this.orgs) {
      if (state === s) {
        this.retire(orgId, s);
        void this.maintain();
        return;
      }
    }
  }

  /** Extends or opens the org's lease; one ledger call per org at a time (others wait for it). */
  private async extend(orgId: string, amount: number, budget: number): Promise<void> {
    const pending = this.acquiring.get(orgId);
    if (pending) {
      await pending.catch(() => undefined);
      return;
    }
    const p = this.doExtend(orgId, amount, budget).finally(() => this.acquiring.delete(orgId));
    this.acquiring.set(orgId, p);
    await p;
  }

  private async doExtend(orgId: string, amount: number, budget: number): Promise<LeaseState> {
    const current = this.orgs.get(orgId);
    const usable = current && !current.closed && current.expiresAt - this.now() >= 1_000 ? current : undefined;
    const need = Math.max(0, amount - (usable?.available ?? 0));
    const request: AcquireLeaseRequest = {
      org_id: orgId,
      lease_id: usable?.id ?? "",
      holder: this.opts.holder,
      amount_minor: Math.max(need, this.opts.chunkMinor),
      min_amount_minor: need,
      ttl_ms: this.opts.ttlMs,
      monthly_budget_minor: budget,
    };
    let lease: Lease;
    try {
      lease = await this.ledger.acquire(request);
    } catch (err) {
      if (usable && err instanceof GatewayError && err.code === "not_found") {
        // The ledger expired our lease (we were idle or partitioned): start a new one.
        this.retire(orgId, usable);
        return this.doExtend(orgId, amount, budget);
      }
      throw err;
    }
    const tight = lease.available_after_minor < this.opts.chunkMinor;
    if (usable && lease.lease_id === usable.id) {
      usable.granted = lease.granted_minor;
      usable.expiresAt = lease.expires_at_ms;
      usable.tight = tight;
      return usable;
    }
    if (current) this.retire(orgId, current);
    const state = new LeaseState(lease.lease_id, lease.expires_at_ms, this.now());
    state.granted = lease.granted_minor;
    state.tight = tight;
    this.orgs.set(orgId, state);
    this.evictIfFull();
    return state;
  }

  private retire(orgId: string, state: LeaseState): void {
    if (this.orgs.get(orgId) === state) this.orgs.delete(orgId);
    if (state.closed) return;
    state.closed = true;
    this.retiring.add({ orgId, state });
  }

  private evictIfFull(): void {
    if (this.orgs.size <= this.opts.maxOrgs) return;
    for (const [orgId, s] of this.orgs) {
      if (s.inflight === 0) {
        this.retire(orgId, s);
        if (this.orgs.size <= this.opts.maxOrgs) return;
      }
    }
  }

  /** Hands idle leases back, renews busy ones before they expire, releases retired ones once drained. */
  async maintain(): Promise<void> {
    const now = this.now();
    const jobs: Promise<unknown>[] = [];
    for (const [orgId, s] of this.orgs) {
      if (s.inflight === 0 && now - s.lastUsed >= this.opts.idleMs) {
        this.retire(orgId, s);
      } else if (s.expiresAt - now < this.opts.ttlMs / 2 && !this.acquiring.has(orgId)) {
        jobs.push(
          this.ledger
            .acquire({ org_id: orgId, lease_id: s.id, holder: this.opts.holder, amount_minor: 0, min_amount_minor: 0, ttl_ms: this.opts.ttlMs, monthly_budget_minor: 0 })
            .then((l) => {
              s.expiresAt = l.expires_at_ms;
            })
            .catch((err: unknown) => {
              if (err instanceof GatewayError && err.code === "not_found") this.retire(orgId, s);
              else this.log.warn({ err, org_id: orgId }, "lease renewal failed");
            }),
        );
      }
    }
    const holdBack = (this.opts.unpublished?.() ?? 0) > 0;
    for (const r of this.retiring) {
      if (r.state.inflight > 0) continue;
      if (holdBack) {
        // Keep the lease (and its hold) alive at the ledger until the spool is published.
        if (r.state.expiresAt - now < this.opts.ttlMs / 2) jobs.push(this.renewRetired(r));
        continue;
      }
      jobs.push(
        this.ledger
          .release({ lease_id: r.state.id, consumed_minor: r.state.consumed, org_id: r.orgId, holder: this.opts.holder })
          .then(() => this.retiring.delete(r))
          .catch((err: unknown) => {
            if (err instanceof GatewayError && err.code === "not_found") this.retiring.delete(r);
            else this.log.warn({ err, lease_id: r.state.id }, "lease release failed; will retry");
          }),
      );
    }
    await Promise.all(jobs);
  }

  private renewRetired(r: { orgId: string; state: LeaseState }): Promise<unknown> {
    return this.ledger
      .acquire({ org_id: r.orgId, lease_id: r.state.id, holder: this.opts.holder, amount_minor: 0, min_amount_minor: 0, ttl_ms: this.opts.ttlMs, monthly_budget_minor: 0 })
      .then((l) => {
        r.state.expiresAt = l.expires_at_ms;
      })
      .catch((err: unknown) => {
        // Expired at the ledger: its hold now waits for the consumer to pass expiry + the arrival margin.
        if (err instanceof GatewayError && err.code === "not_found") this.retiring.delete(r);
        else this.log.warn({ err, lease_id: r.state.id }, "retired lease renewal failed");
      });
  }

  /**
   * Releases every lease (shutdown): in-flight requests have finished by then. With usage still
   * spooled, leases are left to expire at the ledger instead: an expired lease keeps its hold until
   * the usage that can still arrive (replayed by the successor) has (docs/billing.md).
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const [orgId, s] of [...this.orgs]) this.retire(orgId, s);
    if ((this.opts.unpublished?.() ?? 0) > 0) {
      this.log.warn({ leases: this.retiring.size }, "usage still spooled: leases left to expire at the ledger");
      return;
    }
    await this.maintain();
  }
}
