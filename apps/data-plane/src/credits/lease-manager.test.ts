import { describe, expect, it } from "vitest";
import { GatewayError } from "@gateway/errors";
import { createLogger } from "@gateway/observability";
import type { AcquireLeaseRequest, Lease, ReleaseLeaseRequest } from "@gateway/proto";
import { LeaseManager, type LeaseLedger } from "./lease-manager.js";

/** The ledger's lease RPCs as the lease manager sees them, recording what it was asked. */
class RecordingLedger implements LeaseLedger {
  acquired: AcquireLeaseRequest[] = [];
  released: ReleaseLeaseRequest[] = [];
  constructor(private readonly now: () => number) {}
  async acquire(req: AcquireLeaseRequest): Promise<Lease> {
    this.acquired.push(req);
    return {
      lease_id: req.lease_id || "lease_1",
      org_id: req.org_id,
      granted_minor: 1_000,
      remaining_minor: 1_000,
      expires_at_ms: this.now() + req.ttl_ms,
      status: "open",
      holder: req.holder,
      applied_minor: 0,
      created_at_ms: this.now(),
      available_after_minor: 100_000,
      scope: req.scope,
      window_start_ms: 0,
    };
  }
  async release(req: ReleaseLeaseRequest): Promise<Lease> {
    this.released.push(req);
    if (!req.lease_id) throw new GatewayError("not_found", "no lease");
    return {
      lease_id: req.lease_id,
      org_id: "org",
      granted_minor: 1_000,
      remaining_minor: 0,
      expires_at_ms: 0,
      status: "released",
      holder: "",
      applied_minor: 0,
      created_at_ms: 0,
      available_after_minor: 0,
      scope: "",
      window_start_ms: 0,
    };
  }
}

describe("LeaseManager with usage still spooled", () => {
  it("keeps an idle lease alive instead of releasing it, and releases it once the spool is published", async () => {
    let t = 1_000_000;
    const now = () => t;
    const ledger = new RecordingLedger(now);
    let spooled = 1;
    const m = new LeaseManager(ledger, createLogger({ service: "test", level: "silent" }), {
      holder: "r1",
      chunkMinor: 1_000,
      ttlMs: 10_000,
      idleMs: 100,
      maxOrgs: 10,
      now,
      unpublished: () => spooled,
    });
    const r = await m.reserve("org", 50);
    r.settle(40);
    t += 200; // idle
    await m.maintain();
    await m.maintain();
    expect(ledger.released).toEqual([]);
    t += 6_000; // past half its lifetime: renewed, not released
    await m.maintain();
    expect(ledger.acquired.filter((a) => a.lease_id === "lease_1" && a.amount_minor === 0)).toHaveLength(1);
    expect(ledger.released).toEqual([]);
    // Shutdown with events still spooled: the lease is left to expire at the ledger.
    await m.stop();
    expect(ledger.released).toEqual([]);
    spooled = 0;
    await m.maintain();
    expect(ledger.released).toEqual([{ lease_id: "lease_1", consumed_minor: 40, org_id: "org", holder: "r1" }]);
  });
});

describe("LeaseManager when every lease it gets is unusable", () => {
  it("gives up after eight extensions with insufficient_credits instead of asking the ledger forever", async () => {
    const now = () => 1_000_000;
    const ledger = new RecordingLedger(now);
    // Leases shorter than the second a reservation needs left (a ledger granting them so, or a skewed clock).
    const m = new LeaseManager(ledger, createLogger({ service: "test", level: "silent" }), { holder: "r1", chunkMinor: 1_000, ttlMs: 500, idleMs: 100, maxOrgs: 10, now });
    const refused = await m.reserve("org", 50).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(GatewayError);
    expect((refused as GatewayError).code).toBe("insufficient_credits");
    expect(ledger.acquired).toHaveLength(8);
  });
});

describe("LeaseManager dedicated leases (video jobs)", () => {
  const manager = (ledger: LeaseLedger) => new LeaseManager(ledger, createLogger({ service: "test", level: "silent" }), { holder: "r1", chunkMinor: 1_000, ttlMs: 3_000, idleMs: 100, maxOrgs: 10 });

  it("renews one for another lifetime, adding nothing, and says when the ledger no longer holds it", async () => {
    const ledger = new RecordingLedger(Date.now);
    const m = manager(ledger);
    expect(await m.dedicated.renew("org", "lease_9")).toBe("renewed");
    expect(ledger.acquired[0]).toMatchObject({ org_id: "org", lease_id: "lease_9", amount_minor: 0, min_amount_minor: 0, ttl_ms: 3_000 });
    ledger.acquire = async () => {
      throw new GatewayError("not_found", "lease lease_9 is not open");
    };
    expect(await m.dedicated.renew("org", "lease_9")).toBe("gone");
    // A ledger that does not answer is not a lapse: the hold may well be there.
    ledger.acquire = async () => {
      throw new GatewayError("service_unavailable", "ledger away");
    };
    await expect(m.dedicated.renew("org", "lease_9")).rejects.toThrow(/ledger away/);
  });

  it("releases one with what its usage bills, any holder; one the ledger closed already is fine", async () => {
    const ledger = new RecordingLedger(Date.now);
    const m = manager(ledger);
    await m.dedicated.release("org", "lease_9", 500);
    expect(ledger.released[0]).toEqual({ lease_id: "lease_9", consumed_minor: 500, org_id: "org", holder: "" });
    await expect(m.dedicated.release("org", "", 0)).resolves.toBeUndefined();
  });

  it("a request's dedicated hold is released when it settles, once, unless what it made keeps it", async () => {
    const ledger = new RecordingLedger(Date.now);
    const m = manager(ledger);
    // Nothing took it (the submit failed, the job was not recorded): the runner's settle frees it.
    const failed = await m.dedicated.hold("org", 400_000);
    failed.settle(0);
    failed.settle(0);
    await expect.poll(() => ledger.released.length).toBe(1);
    expect(ledger.released[0]).toMatchObject({ lease_id: "lease_1", consumed_minor: 0 });
    // A recorded job keeps it: settling the request leaves the hold to the job.
    const kept = await m.dedicated.hold("org", 400_000);
    kept.keep?.();
    kept.settle(0);
    await new Promise((r) => setTimeout(r, 20));
    expect(ledger.released).toHaveLength(1);
  });
});

describe("LeaseManager: a reservation grown in tranches", () => {
  /** A ledger that grants `granted` at first and up to `balance` in all, refusing beyond it as the ledger does. */
  class BalanceLedger extends RecordingLedger {
    granted = 0;
    constructor(
      now: () => number,
      private readonly balance: number,
    ) {
      super(now);
    }
    override async acquire(req: AcquireLeaseRequest): Promise<Lease> {
      const lease = await super.acquire(req);
      const want = this.granted + req.amount_minor <= this.balance ? req.amount_minor : req.min_amount_minor;
      if (this.granted + want > this.balance) throw new GatewayError("insufficient_credits", "Your organization's credit balance is too low for this request.");
      this.granted += want;
      return { ...lease, granted_minor: this.granted };
    }
  }

  it("grows from the lease locally while it has the credit, then by extending that lease; refused past the balance", async () => {
    const now = () => 1_000_000;
    const ledger = new BalanceLedger(now, 2_500);
    const m = new LeaseManager(ledger, createLogger({ service: "test", level: "silent" }), { holder: "r1", chunkMinor: 1_000, ttlMs: 60_000, idleMs: 10_000, maxOrgs: 10, now });
    const r = await m.reserve("org", 600);
    expect(r.amount).toBe(600);
    // The lease (1,000) has 400 more: no ledger call.
    const calls = ledger.acquired.length;
    expect(r.grow!(400)).toBe(true);
    expect(ledger.acquired.length).toBe(calls);
    expect(r.amount).toBe(1_000);
    // Beyond the lease: the ledger extends the same lease.
    expect(await r.grow!(1_000)).toBe(true);
    expect(ledger.acquired.at(-1)).toMatchObject({ lease_id: "lease_1" });
    expect(r.amount).toBe(2_000);
    // Beyond the balance: refused with the ledger's reason, and the reservation is what it was.
    expect(await r.grow!(1_000)).toMatchObject({ code: "insufficient_credits" });
    expect(r.amount).toBe(2_000);
    // Settled with what was used; a settled reservation grows no more.
    r.settle(1_900);
    expect(r.grow!(1)).toBe(false);
    // The whole grown amount left the lease's reservations: another request can take what is left.
    expect(m.reserveLocal("org", 100)).toBeDefined();
  });
});

describe("LeaseManager: dedicated holds refused together", () => {
  /**
   * A ledger that grants from one balance across leases and frees what a release gives back. While
   * `gate` is shut, asks wait at it, so concurrent asks are answered together (as a busy ledger does).
   */
  class SharedLedger extends RecordingLedger {
    private readonly grants = new Map<string, number>();
    private next = 0;
    gate: Promise<void> | undefined;
    waiting = 0;
    constructor(private readonly balance: number) {
      super(Date.now);
    }
    private get free(): number {
      return this.balance - [...this.grants.values()].reduce((a, b) => a + b, 0);
    }
    override async acquire(req: AcquireLeaseRequest): Promise<Lease> {
      this.waiting++;
      await this.gate;
      this.waiting--;
      const id = req.lease_id || `lease_${++this.next}`;
      const want = this.free >= req.amount_minor ? req.amount_minor : req.min_amount_minor;
      if (want > this.free || want === 0) throw new GatewayError("insufficient_credits", "Your organization's credit balance is too low for this request.");
      this.grants.set(id, (this.grants.get(id) ?? 0) + want);
      return { ...(await super.acquire({ ...req, lease_id: id })), granted_minor: this.grants.get(id)!, available_after_minor: this.free };
    }
    override async release(req: ReleaseLeaseRequest): Promise<Lease> {
      await new Promise((r) => setTimeout(r, 5));
      this.grants.delete(req.lease_id);
      return super.release(req);
    }
  }

  it("every job refused while one of them hands back the replica's idle lease retries into the room it made", async () => {
    // 4,000 of credit, 2,000 of it in the replica's idle lease: two jobs of 1,000 fit at first, four once it is handed back.
    const ledger = new SharedLedger(4_000);
    const m = new LeaseManager(ledger, createLogger({ service: "test", level: "silent" }), { holder: "r1", chunkMinor: 2_000, ttlMs: 60_000, idleMs: 60_000, maxOrgs: 10 });
    (await m.reserve("org", 100)).settle(0);
    expect(ledger.released).toEqual([]);
    let open = () => {};
    ledger.gate = new Promise((r) => (open = r));
    const jobs = Promise.allSettled([1, 2, 3, 4].map(() => m.dedicated.hold("org", 1_000)));
    await expect.poll(() => ledger.waiting).toBe(4);
    ledger.gate = undefined;
    open();
    expect((await jobs).map((j) => j.status)).toEqual(["fulfilled", "fulfilled", "fulfilled", "fulfilled"]);
    expect(ledger.released.map((r) => r.lease_id)).toEqual(["lease_1"]);
    // A fifth finds nothing left and nothing to hand back: refused.
    await expect(m.dedicated.hold("org", 1_000)).rejects.toMatchObject({ code: "insufficient_credits" });
  });
});
