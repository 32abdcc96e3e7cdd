import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent } from "@gateway/events";
import { eventually } from "@gateway/testing";
import { bookViolations, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * The money invariants over random interleavings (fast-check), on the real ledger (Postgres, NATS):
 * top-ups, leases acquired (with and without a minimum), renewed with more credit, holds reserved
 * and settled by usage events (sent twice, as a replica's retry would), leases released with what
 * their holder consumed (some of it still on its way), and leases expired and swept. After each
 * sequence, once every event is applied: balance = topped up − spent, spent = the usage settled,
 * nothing held is negative, the balance never went below zero (every charge came from a hold), and
 * the journal balances (bookViolations).
 */
let f: LedgerFixture;
let run = 0;

beforeAll(async () => {
  f = await startLedgerFixture("ledger_properties", { LEDGER_SWEEP_INTERVAL_MS: "50", LEDGER_USAGE_ARRIVAL_MS: "0" });
});

afterAll(async () => {
  await f?.stop();
});

type Op =
  | { op: "topUp"; amount: number }
  | { op: "acquire"; amount: number; minPercent: number; short: boolean }
  | { op: "renew"; lease: number; extra: number }
  | { op: "settle"; lease: number; percent: number; twice: boolean }
  | { op: "release"; lease: number; unsent: number }
  | { op: "expire" };

const ops = fc.array(
  fc.oneof(
    { weight: 1, arbitrary: fc.record({ op: fc.constant("topUp" as const), amount: fc.integer({ min: 1, max: 20_000 }) }) },
    {
      weight: 3,
      arbitrary: fc.record({
        op: fc.constant("acquire" as const),
        amount: fc.integer({ min: 1, max: 4_000 }),
        // The minimum the holder needs, as a share of what it asks (the ledger may grant less above it).
        minPercent: fc.integer({ min: 0, max: 100 }),
        // One lease in five is short-lived, for the expire step.
        short: fc.integer({ min: 0, max: 4 }).map((x) => x === 0),
      }),
    },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("renew" as const), lease: fc.nat(), extra: fc.integer({ min: 1, max: 2_000 }) }) },
    { weight: 4, arbitrary: fc.record({ op: fc.constant("settle" as const), lease: fc.nat(), percent: fc.integer({ min: 0, max: 100 }), twice: fc.boolean() }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("release" as const), lease: fc.nat(), unsent: fc.integer({ min: 0, max: 300 }) }) },
    { weight: 1, arbitrary: fc.record({ op: fc.constant("expire" as const) }) },
  ),
  { minLength: 1, maxLength: 24 },
);
/** Every sequence starts with credit (an empty org can do nothing worth checking). */
const sequences = fc.tuple(fc.integer({ min: 1_000, max: 20_000 }), ops).map(([first, rest]): Op[] => [{ op: "topUp", amount: first }, ...rest]);

interface LocalLease {
  id: string;
  /** What the holder may still reserve (granted − reserved), as the data-plane's lease manager tracks it. */
  free: number;
  /** Settled usage published for it. */
  settled: number;
  open: boolean;
  short: boolean;
  expiresAt: number;
}

/** Plays one sequence against a fresh organization; returns what the books must show. */
async function play(sequence: Op[]): Promise<{ org: string; toppedUp: number; spent: number; requests: string[] }> {
  const org = `org_prop_${process.pid}_${run++}`;
  const leases: LocalLease[] = [];
  const requests: string[] = [];
  let toppedUp = 0;
  let spent = 0;
  // A holder stops using a lease a little before it expires (the data-plane renews or lets it go).
  const pick = (i: number) => {
    const l = leases.length ? leases[i % leases.length] : undefined;
    if (l?.open && Date.now() > l.expiresAt - 300) l.open = false;
    return l;
  };
  for (const [i, o] of sequence.entries()) {
    switch (o.op) {
      case "topUp":
        await f.client.TopUp({ org_id: org, amount_minor: o.amount, idempotency_key: `${org}-${i}` });
        toppedUp += o.amount;
        break;
      case "acquire": {
        const min = Math.max(1, Math.ceil((o.amount * o.minPercent) / 100));
        const l = await f.client
          .AcquireLease({ org_id: org, lease_id: "", holder: "prop", amount_minor: o.amount, min_amount_minor: min, ttl_ms: o.short ? 1_000 : 60_000, monthly_budget_minor: 0 })
          .catch(() => undefined);
        if (l) {
          expect(l.granted_minor).toBeGreaterThanOrEqual(min);
          expect(l.granted_minor).toBeLessThanOrEqual(o.amount);
          leases.push({ id: l.lease_id, free: l.granted_minor, settled: 0, open: true, short: o.short, expiresAt: l.expires_at_ms });
        }
        break;
      }
      case "renew": {
        const l = pick(o.lease);
        if (!l?.open) break;
        const r = await f.client
          .AcquireLease({ org_id: org, lease_id: l.id, holder: "prop", amount_minor: o.extra, min_amount_minor: 0, ttl_ms: 60_000, monthly_budget_minor: 0 })
          .catch(() => undefined);
        // granted_minor is the lease's total: what the holder may reserve is it less what it already did.
        if (r) {
          l.free = r.granted_minor - l.settled;
          l.expiresAt = r.expires_at_ms;
        }
        break;
      }
      case "settle": {
        const l = pick(o.lease);
        if (!l?.open) break;
        // A request reserved part of what the lease has free and its usage cost at most that.
        const cost = Math.floor((l.free * o.percent) / 100);
        const ev = usageEvent(org, l.id, cost);
        await f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
        if (o.twice) await f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
        requests.push(ev.request_id);
        l.free -= cost;
        l.settled += cost;
        spent += cost;
        break;
      }
      case "release": {
        const l = pick(o.lease);
        if (!l?.open) break;
        // The holder also consumed `unsent` whose usage never comes: the ledger holds it until expiry
        // and the arrival window, then releases it (nothing is spent for it).
        await f.client.ReleaseLease({ lease_id: l.id, org_id: org, consumed_minor: l.settled + Math.min(o.unsent, l.free) }).catch(() => undefined);
        l.open = false;
        break;
      }
      case "expire": {
        // The short leases (1 s) run out and the sweeper releases them once their usage is applied.
        const short = new Set(leases.filter((l) => l.short && l.open).map((l) => l.id));
        if (!short.size) break;
        for (const l of leases) if (short.has(l.id)) l.open = false;
        await eventually(
          async () => ((await f.client.ListHolds({ org_id: org })).leases.some((x) => short.has(x.lease_id) && x.status === "open") ? undefined : true),
          15_000,
          "short leases expired and swept",
        );
        break;
      }
    }
  }
  return { org, toppedUp, spent, requests };
}

describe("money invariants over random interleavings", () => {
  it("balance = topped up − spent, spent = usage settled, holds never negative, never spent beyond the balance, the journal balances", async () => {
    await fc.assert(
      fc.asyncProperty(sequences, async (sequence) => {
        const { org, toppedUp, spent, requests } = await play(sequence);
        for (const id of requests) await f.client.GetUsage({ request_id: id, org_id: org, wait_ms: 10_000 });
        const c = await f.client.GetCredits({ org_id: org });
        expect(c.spent_minor).toBe(spent);
        expect(c.balance_minor).toBe(toppedUp - spent);
        expect(c.balance_minor).toBeGreaterThanOrEqual(0);
        expect(c.held_minor).toBeGreaterThanOrEqual(0);
        expect(c.held_minor).toBeLessThanOrEqual(c.balance_minor);
        expect(await bookViolations(f.ledger.db)).toEqual([]);
      }),
      { numRuns: 40, seed: 20261124 },
    );
  });
});
