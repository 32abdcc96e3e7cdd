import { GatewayError, budgetOfScope } from "@gateway/errors";
import type { Logger } from "@gateway/observability";
import type { Lease } from "@gateway/proto";
import { DedicatedHolds } from "./dedicated-holds.js";
import { acquireRequest, isRefusal, keyOf, type BudgetClaim, type BudgetHold, type LeaseLedger, type LeaseTarget } from "./lease-request.js";

export type { BudgetClaim, BudgetHold, LeaseLedger } from "./lease-request.js";

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

/**
 * Extensions one reservation (or a tranche's growth) may wait for before it is refused although the
 * ledger still grants: concurrent requests of a replica share each extension, and a request that
 * keeps losing it is told its credit or budget is spoken for rather than waiting on.
 */
const MAX_EXTENSIONS = 8;

/** Which budget a scope is, as a refusal names it (the ledger's wording: leases/budget-lease.ts). */
function spokenFor(t: LeaseTarget): GatewayError {
  const scope = t.claim?.scope;
  if (!scope) return new GatewayError("insufficient_credits", "Your organization's credit balance is too low for this request.", { action: "top_up" });
  const { kind: budget, name } = budgetOfScope(scope);
  return new GatewayError("budget_exceeded", `${name} budget is spoken for by requests in flight.`, { action: "contact_org_admin", budget });
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
  /** A budget lease at its window's end: the ledger does not renew it past that. */
  capped = false;
  constructor(
    readonly target: LeaseTarget,
    readonly id: string,
    public expiresAt: number,
    public lastUsed: number,
  ) {}
  get available(): number {
    return this.granted - this.reserved - this.consumed;
  }
}

/** A grown hold: true; false when the lease is gone or the ledger did not answer; the ledger's refusal (insufficient_credits, budget_exceeded). */
export type Grown = boolean | GatewayError;

/** A request's slice of a lease: settle it exactly once with the actual cost. */
export interface Reservation {
  readonly leaseId: string;
  /** The budget leases it is also held under (its usage event names them: the ledger spends its cost from each). */
  readonly budgetLeaseIds?: readonly string[];
  /** A dedicated hold's budgets, each with the claim it was made with (the video job keeps them). */
  readonly budgetHolds?: readonly BudgetHold[];
  readonly amount: number;
  settle(actualCostMinor: number): void;
  /**
   * Holds `more` on top (a stream's next output tranche, pipeline/tranches.ts): from the same lease,
   * locally when it has the credit, else by extending that lease at the ledger. False when the
   * balance or the budget cannot cover it, the lease was replaced meanwhile, or the ledger did not
   * answer: the caller stops the work. A lease's own reservations only (not a dedicated hold's).
   * Held under budgets too, each grows by `more` as well.
   */
  grow?(more: number): Grown | Promise<Grown>;
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
 * Budgets are leased the same way, one lease per (organization, scope) where the scope is active
 * (docs/billing.md, "Budgets"): a request is held under its credit and each of its budgets, all or
 * none. `maxOrgs` bounds the leases a replica keeps (idle ones are handed back first).
 */
export class LeaseManager {
  /** Open leases by target: the organization id for credit, organization + scope for a budget. */
  private readonly leases = new Map<string, LeaseState>();
  private readonly acquiring = new Map<string, Promise<LeaseState>>();
  /**
   * What the requests waiting on each target's extension need together, minor units: an extension
   * asks for all of it at once, so a burst is served in one round trip rather than a quarter of
   * what is left at a time (one entry per target with waiters, removed when the last is done).
   */
  private readonly waiting = new Map<string, number>();
  /** Leases replaced while requests were still in flight; released when those finish. */
  private readonly retiring = new Set<LeaseState>();
  /** A hand-back of idle leases for a refused dedicated hold, while it runs; how many have ended. */
  private handingBack: Promise<void> | undefined;
  private handBacks = 0;
  private timer: NodeJS.Timeout | undefined;
  private readonly now: () => number;
  /** Leases of their own for work that outlives the request (video jobs); a refusal first hands back this replica's idle leases. */
  readonly dedicated: DedicatedHolds;

  constructor(
    private readonly ledger: LeaseLedger,
    private readonly log: Logger,
    private readonly opts: LeaseManagerOptions,
  ) {
    this.now = opts.now ?? Date.now;
    this.dedicated = new DedicatedHolds(ledger, log, { holder: opts.holder, ttlMs: opts.ttlMs, handBackIdle: (keys) => this.handBackIdle(keys), handBacks: () => this.handBacks });
  }

  start(): void {
    const every = Math.max(100, Math.min(this.opts.idleMs, this.opts.ttlMs / 4));
    this.timer = setInterval(() => void this.maintain(), every);
    this.timer.unref();
  }

  private usable(key: string): LeaseState | undefined {
    const s = this.leases.get(key);
    return s && !s.closed && s.expiresAt - this.now() >= 1_000 ? s : undefined;
  }

  /**
   * The reservation when the replica's leases cover `amount` now (credit and every budget), without
   * a promise; undefined when only `reserve` (which may extend leases at the ledger) can answer.
   */
  reserveLocal(orgId: string, amount: number, claims: readonly BudgetClaim[] = []): Reservation | undefined {
    // Check and reserve in one synchronous step: no await between them, so concurrent requests
    // can never reserve the same credit twice.
    const credit = this.usable(orgId);
    if (!credit || credit.available < amount) return undefined;
    if (claims.length === 0) return this.take(credit, amount);
    const budgets: LeaseState[] = [];
    for (const c of claims) {
      const b = this.usable(keyOf({ orgId, monthlyBudgetMinor: 0, claim: c }));
      if (!b || b.available < amount) return undefined;
      budgets.push(b);
    }
    return combined(
      this.take(credit, amount),
      budgets.map((b) => this.take(b, amount)),
    );
  }

  /** Reserves `amount` for one request under its credit and budgets; throws insufficient_credits, budget_exceeded or service_unavailable. */
  async reserve(orgId: string, amount: number, monthlyBudgetMinor = 0, claims: readonly BudgetClaim[] = [], balanceAlertsMinor?: readonly number[]): Promise<Reservation> {
    const targets: LeaseTarget[] = [{ orgId, monthlyBudgetMinor, ...(balanceAlertsMinor ? { balanceAlertsMinor } : {}) }, ...claims.map((claim) => ({ orgId, monthlyBudgetMinor: 0, claim }))];
    const first = this.reserveLocal(orgId, amount, claims);
    if (first) return first;
    const done = targets.map((t) => this.wait(keyOf(t), amount));
    try {
      for (let attempt = 0; ; attempt++) {
        const local = attempt === 0 ? undefined : this.reserveLocal(orgId, amount, claims);
        if (local) return local;
        const short = targets.filter((t) => (this.usable(keyOf(t))?.available ?? -1) < amount);
        // Others keep taking what each extension adds: the credit (or a budget, named first) is spoken for.
        if (attempt >= MAX_EXTENSIONS) throw spokenFor(short.find((t) => t.claim) ?? short[0] ?? targets[0]!);
        // Every lease short of `amount` extended at once: one round trip for a scope's first request.
        await Promise.all(short.map((t) => this.extend(t, amount)));
      }
    } finally {
      for (const d of done) d();
    }
  }

  /** Counts `amount` as waiting on the target's extension until the returned function is called. */
  private wait(key: string, amount: number): () => void {
    this.waiting.set(key, (this.waiting.get(key) ?? 0) + amount);
    return () => {
      const left = (this.waiting.get(key) ?? 0) - amount;
      if (left > 0) this.waiting.set(key, left);
      else this.waiting.delete(key);
    };
  }

  /** Releases the replica's leases of these targets that no request is using; whether there were any. */
  /**
   * Hands back the idle leases of `keys` and waits until the ledger has them. True when it did, or
   * when another refused hold's hand-back was under way (waited for): both make room a hold refused
   * meanwhile can retry into. Counted in `handBacks`.
   */
  private async handBackIdle(keys: readonly string[]): Promise<boolean> {
    const idle = keys.map((k) => this.leases.get(k)).filter((s): s is LeaseState => s !== undefined && s.inflight === 0 && s.available > 0);
    if (idle.length === 0) {
      if (!this.handingBack) return false;
      await this.handingBack;
      return true;
    }
    for (const s of idle) this.retire(s);
    const done = this.maintain().finally(() => {
      this.handBacks++;
      if (this.handingBack === done) this.handingBack = undefined;
    });
    this.handingBack = done;
    await done;
    return true;
  }

  private take(s: LeaseState, amount: number): Reservation {
    s.reserved += amount;
    s.inflight++;
    s.lastUsed = this.now();
    let settled = false;
    let held = amount;
    const key = keyOf(s.target);
    const usable = () => !settled && !s.closed && this.leases.get(key) === s && s.expiresAt - this.now() >= 1_000;
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
      grow: (more: number) => {
        if (!usable()) return false;
        // Checked and taken in one synchronous step, as reserveLocal does.
        if (s.available >= more) return add(more);
        return this.growAtLedger(s, more, usable, add);
      },
    };
  }

  /**
   * A reservation's growth the lease cannot cover: the lease extended at the ledger, as often as
   * concurrent requests take what an extension added first (as `reserve` does), until it covers
   * `more`, the ledger refuses (its error), or the lease is no longer the reservation's (false).
   */
  private async growAtLedger(s: LeaseState, more: number, usable: () => boolean, add: (more: number) => boolean): Promise<Grown> {
    const done = this.wait(keyOf(s.target), more);
    try {
      for (let attempt = 0; attempt < MAX_EXTENSIONS; attempt++) {
        try {
          await this.extend(s.target, more);
        } catch (err) {
          return err instanceof GatewayError && isRefusal(err) ? err : false;
        }
        if (!usable()) return false;
        if (s.available >= more) return add(more);
      }
      return spokenFor(s.target);
    } finally {
      done();
    }
  }

  /** Returns an idle tight lease now rather than after the idle period. */
  private handBack(s: LeaseState): void {
    this.retire(s);
    void this.maintain();
  }

  /** Extends or opens the target's lease; one ledger call per target at a time (others wait for it). */
  private async extend(t: LeaseTarget, amount: number): Promise<void> {
    const key = keyOf(t);
    const pending = this.acquiring.get(key);
    if (pending) {
      await pending.catch(() => undefined);
      return;
    }
    const p = this.doExtend(t, amount).finally(() => this.acquiring.delete(key));
    this.acquiring.set(key, p);
    await p;
  }

  private async doExtend(t: LeaseTarget, amount: number): Promise<LeaseState> {
    const key = keyOf(t);
    const current = this.leases.get(key);
    const usable = this.usable(key);
    const available = usable?.available ?? 0;
    const need = Math.max(0, amount - available);
    // What every request waiting on this lease needs: granted in full when the ledger has it (one round
    // trip for a burst), this request's own need being the least it takes.
    const demand = Math.max(need, (this.waiting.get(key) ?? 0) - available);
    let lease: Lease;
    try {
      lease = await this.ledger.acquire({
        ...acquireRequest(t, this.opts.holder, this.opts.ttlMs, usable?.id ?? "", Math.max(demand, this.opts.chunkMinor), need),
        demand_minor: demand - need,
      });
    } catch (err) {
      if (usable && err instanceof GatewayError && err.code === "not_found") {
        // The ledger expired our lease (we were idle or partitioned), or its budget window ended: start a new one.
        this.retire(usable);
        return this.doExtend(t, amount);
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
    if (current) this.retire(current);
    const state = new LeaseState(t, lease.lease_id, lease.expires_at_ms, this.now());
    state.granted = lease.granted_minor;
    state.tight = tight;
    this.leases.set(key, state);
    this.evictIfFull();
    return state;
  }

  private retire(state: LeaseState): void {
    const key = keyOf(state.target);
    if (this.leases.get(key) === state) this.leases.delete(key);
    if (state.closed) return;
    state.closed = true;
    this.retiring.add(state);
  }

  private evictIfFull(): void {
    if (this.leases.size <= this.opts.maxOrgs) return;
    for (const s of this.leases.values()) {
      if (s.inflight === 0) {
        this.retire(s);
        if (this.leases.size <= this.opts.maxOrgs) return;
      }
    }
  }

  /** Hands idle leases back, renews busy ones before they expire, releases retired ones once drained. */
  async maintain(): Promise<void> {
    const now = this.now();
    const jobs: Promise<unknown>[] = [];
    for (const [key, s] of this.leases) {
      if (s.inflight === 0 && now - s.lastUsed >= this.opts.idleMs) {
        this.retire(s);
      } else if (s.expiresAt - now < this.opts.ttlMs / 2 && !s.capped && !this.acquiring.has(key)) {
        jobs.push(
          this.ledger
            .acquire(acquireRequest(s.target, this.opts.holder, this.opts.ttlMs, s.id, 0, 0))
            .then((l) => {
              // A budget lease is not renewed past its window's end: it is replaced when that comes.
              if (l.expires_at_ms <= s.expiresAt) s.capped = true;
              s.expiresAt = l.expires_at_ms;
            })
            .catch((err: unknown) => {
              if (err instanceof GatewayError && err.code === "not_found") this.retire(s);
              else this.log.warn({ err, org_id: s.target.orgId }, "lease renewal failed");
            }),
        );
      }
    }
    const holdBack = (this.opts.unpublished?.() ?? 0) > 0;
    for (const r of this.retiring) {
      if (r.inflight > 0) continue;
      if (holdBack) {
        // Keep the lease (and its hold) alive at the ledger until the spool is published.
        if (r.expiresAt - now < this.opts.ttlMs / 2 && !r.capped) jobs.push(this.renewRetired(r));
        continue;
      }
      jobs.push(
        this.ledger
          .release({ lease_id: r.id, consumed_minor: r.consumed, org_id: r.target.orgId, holder: this.opts.holder })
          .then(() => this.retiring.delete(r))
          .catch((err: unknown) => {
            if (err instanceof GatewayError && err.code === "not_found") this.retiring.delete(r);
            else this.log.warn({ err, lease_id: r.id }, "lease release failed; will retry");
          }),
      );
    }
    await Promise.all(jobs);
  }

  private renewRetired(r: LeaseState): Promise<unknown> {
    return this.ledger
      .acquire(acquireRequest(r.target, this.opts.holder, this.opts.ttlMs, r.id, 0, 0))
      .then((l) => {
        if (l.expires_at_ms <= r.expiresAt) r.capped = true;
        r.expiresAt = l.expires_at_ms;
      })
      .catch((err: unknown) => {
        // Expired at the ledger: its hold now waits for the consumer to pass expiry + the arrival margin.
        if (err instanceof GatewayError && err.code === "not_found") this.retiring.delete(r);
        else this.log.warn({ err, lease_id: r.id }, "retired lease renewal failed");
      });
  }

  /**
   * Releases every lease (shutdown): in-flight requests have finished by then. With usage still
   * spooled, leases are left to expire at the ledger instead: an expired lease keeps its hold until
   * the usage that can still arrive (replayed by the successor) has (docs/billing.md).
   */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    for (const s of [...this.leases.values()]) this.retire(s);
    if ((this.opts.unpublished?.() ?? 0) > 0) {
      this.log.warn({ leases: this.retiring.size }, "usage still spooled: leases left to expire at the ledger");
      return;
    }
    await this.maintain();
  }
}

/** A request held under its credit and its budgets: one reservation that settles and grows them all. */
function combined(credit: Reservation, budgets: Reservation[]): Reservation {
  const all = [credit, ...budgets];
  return {
    leaseId: credit.leaseId,
    budgetLeaseIds: budgets.map((b) => b.leaseId),
    /** What every one of them holds (a grow one refused leaves the others larger). */
    get amount() {
      let held = credit.amount;
      for (const b of budgets) held = Math.min(held, b.amount);
      return held;
    },
    settle: (actual: number) => {
      for (const r of all) r.settle(actual);
    },
    grow: (more: number) => {
      const grown = all.map((r) => r.grow?.(more) ?? false);
      if (grown.every((g) => g === true)) return true;
      // What refused first names why (a budget's refusal names the budget).
      return Promise.all(grown).then((g) => g.find((x) => x !== true) ?? true);
    },
  };
}
