import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { eventually } from "@gateway/testing";
import { sql } from "@gateway/db";
import { bookViolations, drained, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * The ledger's apply path attacked where money could slip (issue 23): usage costing more than its
 * lease still holds, an event naming another organization's lease, zero-cost events, and a monthly
 * budget after spending. Real Postgres and NATS; every number below is written out, not computed
 * by the code under test; the books are checked after each attack.
 */
let f: LedgerFixture;
let n = 0;
const ledger = () => f.ledger;

const publish = (ev: UsageEventV1) => f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
const credits = (orgId: string) => f.client.GetCredits({ org_id: orgId });
const org = () => `org_edges_${process.pid}_${n++}`;
const topUp = (orgId: string, amount: number) => f.client.TopUp({ org_id: orgId, amount_minor: amount, idempotency_key: `top-${orgId}-${amount}` });
/** A lease of exactly `amount` unless `min` is lower (then the ledger may grant less: a quarter of what is free beyond it). */
const lease = (orgId: string, amount: number, budget = 0, min = amount) =>
  f.client.AcquireLease({ org_id: orgId, lease_id: "", holder: "edges", amount_minor: amount, min_amount_minor: min, ttl_ms: 60_000, monthly_budget_minor: budget });

async function applied(requestId: string): Promise<void> {
  await eventually(
    async () => ((await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE request_id = ${requestId}`.execute(ledger().db)).rows[0]!.n === 1 ? true : undefined),
    15_000,
    `usage ${requestId} applied`,
  );
}

const leaseRow = async (id: string) => {
  const r = (await sql<{ remaining_minor: string | number; applied_minor: string | number }>`SELECT remaining_minor, applied_minor FROM leases WHERE id = ${id}`.execute(ledger().db)).rows[0]!;
  return { remaining_minor: Number(r.remaining_minor), applied_minor: Number(r.applied_minor) };
};

beforeAll(async () => {
  f = await startLedgerFixture("ledger_edges", { LEDGER_USAGE_ARRIVAL_MS: "0" });
});

afterAll(async () => {
  await f?.stop();
});

describe("usage applied against a lease", () => {
  it("costing more than the lease still holds: the whole cost is spent, the lease goes to zero, never below, and the org's hold falls by what the lease held", async () => {
    const o = org();
    await topUp(o, 10_000);
    const l = await lease(o, 2_000);
    expect(l.granted_minor).toBe(2_000);
    const first = usageEvent(o, l.lease_id, 1_500);
    await publish(first);
    await applied(first.request_id);
    // 500 left in the lease; the next costs 1,250 (within what the lease was granted, so not capped).
    const ev = usageEvent(o, l.lease_id, 1_250);
    await publish(ev);
    await applied(ev.request_id);
    const c = await credits(o);
    // 10,000 topped up − 2,750 spent; nothing held any more (the lease's last 500 were settled by it).
    expect(c).toMatchObject({ balance_minor: 7_250, held_minor: 0 });
    expect(await leaseRow(l.lease_id)).toEqual({ remaining_minor: 0, applied_minor: 2_750 });
    expect(await bookViolations(ledger().db)).toEqual([]);
  });

  it("naming another organization's lease: charged to its own organization; the other's lease and hold are untouched", async () => {
    const victim = org();
    const attacker = org();
    await topUp(victim, 5_000);
    await topUp(attacker, 5_000);
    const victimLease = await lease(victim, 2_000);
    const ev = usageEvent(attacker, victimLease.lease_id, 700);
    await publish(ev);
    await applied(ev.request_id);
    expect(await credits(victim)).toMatchObject({ balance_minor: 5_000, held_minor: 2_000 });
    expect(await leaseRow(victimLease.lease_id)).toEqual({ remaining_minor: 2_000, applied_minor: 0 });
    expect(await credits(attacker)).toMatchObject({ balance_minor: 4_300, held_minor: 0 });
    expect(await bookViolations(ledger().db)).toEqual([]);
  });

  it("of zero cost: recorded once (sent twice), nothing spent, the lease keeps its hold, the books balance", async () => {
    const o = org();
    await topUp(o, 1_000);
    const l = await lease(o, 400);
    const ev = usageEvent(o, l.lease_id, 0, { status: 504, usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false } });
    await publish(ev);
    await publish(ev);
    await applied(ev.request_id);
    await drained(f.nc);
    expect(await credits(o)).toMatchObject({ balance_minor: 1_000, held_minor: 400 });
    expect(await leaseRow(l.lease_id)).toEqual({ remaining_minor: 400, applied_minor: 0 });
    const rows = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE request_id = ${ev.request_id} AND cost_minor = 0`.execute(ledger().db)).rows[0]!;
    expect(rows.n).toBe(1);
    expect(await bookViolations(ledger().db)).toEqual([]);
  });
});

describe("a monthly budget", () => {
  it("after spending: a new lease is capped at budget − spent this month − held, and refused once nothing is left", async () => {
    const o = org();
    await topUp(o, 100_000);
    const first = await lease(o, 600, 1_000);
    expect(first.granted_minor).toBe(600);
    // 550 spent against it, the rest released: 450 of the 1,000 budget left, nothing held.
    const ev = usageEvent(o, first.lease_id, 550);
    await publish(ev);
    await applied(ev.request_id);
    expect(await f.client.ReleaseLease({ lease_id: first.lease_id, org_id: o, consumed_minor: 550 })).toMatchObject({ status: "released", remaining_minor: 0 });
    expect((await credits(o)).held_minor).toBe(0);
    const second = await lease(o, 2_000, 1_000, 1);
    expect(second.granted_minor).toBe(450);
    // All 450 held now: the budget has nothing more to give, whatever the balance.
    const third = await lease(o, 10, 1_000, 1).catch((e: unknown) => e);
    expect(String(third)).toMatch(/budget/i);
    expect((await credits(o)).balance_minor).toBe(99_450);
    expect(await bookViolations(ledger().db)).toEqual([]);
  });
});

describe("the apply function by itself", () => {
  it("records and bills a request id that comes twice in one batch once (its callers remove such repeats; a backfill by hand might not)", async () => {
    const o = org();
    await topUp(o, 1_000);
    const rec = {
      request_id: `req_dup_${o}`,
      org_id: o,
      key_id: "k",
      model: "m",
      route: "chat",
      provider: "p",
      upstream_model: "u",
      lease_id: "",
      input_tokens: 1,
      output_tokens: 1,
      cached_input_tokens: 0,
      estimated: false,
      cost_minor: 5,
      input_price_minor_per_mtok: 1,
      output_price_minor_per_mtok: 1,
      stream: false,
      status: 200,
      duration_ms: 1,
      line_items: [],
      guardrails: [],
      created_at_ms: Date.now(),
    };
    const r = await sql<{ applied: string[] }>`SELECT applied FROM apply_usage_batch(${JSON.stringify([rec, rec])}::jsonb, ${`post_dup_${o}`}::text)`.execute(ledger().db);
    expect(r.rows[0]!.applied).toEqual([rec.request_id]);
    expect((await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE request_id = ${rec.request_id}`.execute(ledger().db)).rows[0]!.n).toBe(1);
    expect((await credits(o)).spent_minor).toBe(5);
    expect(await bookViolations(ledger().db)).toEqual([]);
  });
});
