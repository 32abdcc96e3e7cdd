import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent } from "@gateway/events";
import { eventually } from "@gateway/testing";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { LeaseSweeper } from "../src/leases/sweeper.js";
import { bookViolations, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * The sweeper run by hand (its own timer set to an hour), on real Postgres and NATS: an expired
 * lease's hold is released only once the usage consumer has applied everything published before
 * it — while the ledger applies nothing, the hold stays, however often the sweeper runs; once the
 * usage is applied, the rest is released, once.
 */
let f: LedgerFixture;
const more: Ledger[] = [];
let n = 0;

beforeAll(async () => {
  f = await startLedgerFixture("ledger_sweeper", {
    LEDGER_LEASE_MAX_TTL_MS: "1000",
    LEDGER_USAGE_ARRIVAL_MS: "0",
    LEDGER_SWEEP_INTERVAL_MS: "3600000",
    // This ledger grants leases and answers, but applies no usage: the consumer lags without bound.
    LEDGER_CONSUME: "false",
  });
});

afterAll(async () => {
  for (const l of more) await l.stop();
  await f?.stop();
});

describe("the lease sweeper", () => {
  it("keeps an expired lease's hold while its usage is unapplied, and releases the rest once it is applied, once", async () => {
    const org = `org_sweep_${process.pid}_${n++}`;
    await f.client.TopUp({ org_id: org, amount_minor: 10_000, idempotency_key: `sweep-${org}` });
    const lease = await f.client.AcquireLease({ org_id: org, lease_id: "", holder: "gone", amount_minor: 900, min_amount_minor: 900, ttl_ms: 1_000, monthly_budget_minor: 0 });
    const ev = usageEvent(org, lease.lease_id, 250);
    await f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
    await eventually(async () => (Date.now() > lease.expires_at_ms + 50 ? true : undefined), 15_000, "the lease past its expiry");

    const sweeper = new LeaseSweeper(f.ledger.ctx);
    // Expired, but its usage is still in the stream: nothing is released, however often it runs.
    expect(await sweeper.sweep()).toBe(0);
    expect(await sweeper.sweep()).toBe(0);
    const holds = (await f.client.ListHolds({ org_id: org })).leases;
    expect(holds).toEqual([expect.objectContaining({ lease_id: lease.lease_id, status: "expired", remaining_minor: 900 })]);
    expect(await f.client.GetCredits({ org_id: org })).toMatchObject({ balance_minor: 10_000, held_minor: 900 });

    // A ledger that consumes applies the usage: 250 spent against the lease, 650 still held until swept.
    const consuming = createLedger(loadConfig({ ...f.env, LEDGER_CONSUME: "true" }));
    await consuming.start();
    more.push(consuming);
    await f.client.GetUsage({ request_id: ev.request_id, org_id: org, wait_ms: 10_000 });
    expect(await f.client.GetCredits({ org_id: org })).toMatchObject({ balance_minor: 9_750, spent_minor: 250, held_minor: 650 });
    // Once the watermark passed the expiry, one sweep releases the rest; a second finds nothing.
    const released = await eventually(async () => ((await sweeper.sweep()) === 1 ? true : undefined), 10_000, "the rest released");
    expect(released).toBe(true);
    expect(await sweeper.sweep()).toBe(0);
    expect(await f.client.GetCredits({ org_id: org })).toMatchObject({ balance_minor: 9_750, held_minor: 0 });
    expect(await bookViolations(f.ledger.db)).toEqual([]);
  });
});
