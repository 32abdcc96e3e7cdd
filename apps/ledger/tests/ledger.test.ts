import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream, jetstreamManager, type JetStreamClient } from "@nats-io/jetstream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_BALANCE_SUBJECT, LEDGER_STREAM, LedgerBalanceV1, USAGE_SUBJECT, decodeEvent, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually, freePort, startNats, type NatsHandle } from "@gateway/testing";
import { sql } from "@gateway/db";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { bookViolations, usageEvent, migratedDatabase } from "./support.js";

const TOKEN = "ledger-test-admin-token";
let nats: NatsHandle;
let ledger: Ledger;
let env: Record<string, string>;
let client: TypedClient<LedgerServiceMethods>;
let nc: NatsConnection;
let js: JetStreamClient;
let seq = 0;

const org = (name: string) => `org_${name}`;
const event = usageEvent;
const publish = (ev: UsageEventV1, msgID = ev.request_id) => js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID });
const topUp = (orgId: string, amount: number, key = `${orgId}-${amount}-${seq++}`) => client.TopUp({ org_id: orgId, amount_minor: amount, idempotency_key: key });
const lease = (orgId: string, amount: number, min = amount, leaseId = "", ttl = 60_000) =>
  client.AcquireLease({ org_id: orgId, lease_id: leaseId, holder: "test", amount_minor: amount, min_amount_minor: min, ttl_ms: ttl });

beforeAll(async () => {
  const db = await migratedDatabase("ledger_service");
  nats = await startNats();
  const port = await freePort();
  env = {
    LEDGER_DATABASE_URL: db,
    LEDGER_MIGRATE_ON_START: "true",
    LEDGER_NATS_URL: nats.url,
    LEDGER_GRPC_PORT: String(port),
    LEDGER_OPS_PORT: "0",
    LEDGER_ADMIN_TOKEN: TOKEN,
    LEDGER_LOG_LEVEL: "silent",
    LEDGER_SWEEP_INTERVAL_MS: "100",
    LEDGER_USAGE_ARRIVAL_MS: "0",
  };
  ledger = createLedger(loadConfig(env));
  await ledger.start();
  client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
  nc = await connect({ servers: nats.url });
  js = jetstream(nc);
});

afterAll(async () => {
  client?.close();
  await nc?.close();
  await ledger?.stop();
  await nats?.stop();
});

describe("top-ups", () => {
  it("are idempotent on the key and refuse a reused key for another amount", async () => {
    const a = await topUp(org("t1"), 1_000, "tk-1");
    expect(a.duplicate).toBe(false);
    expect(a.credits).toMatchObject({ balance_minor: 1_000, topped_up_minor: 1_000 });
    const again = await topUp(org("t1"), 1_000, "tk-1");
    expect(again).toMatchObject({ duplicate: true, top_up_id: a.top_up_id });
    expect(again.credits!.balance_minor).toBe(1_000);
    await expect(topUp(org("t1"), 2_000, "tk-1")).rejects.toMatchObject({ code: "already_exists" });
    await expect(topUp(org("t1"), 0)).rejects.toMatchObject({ code: "invalid_request" });
  });

  it("are announced on the LEDGER stream once each, a replay not at all", async () => {
    const o = org("t3");
    await topUp(o, 3_000, "t3-a");
    await topUp(o, 3_000, "t3-a");
    await topUp(o, 500, "t3-b");
    const announced = await eventually(
      async () => {
        const jsm = await jetstreamManager(nc);
        const { state } = await jsm.streams.info(LEDGER_STREAM);
        const seen: LedgerBalanceV1[] = [];
        for (let seq = state.first_seq; seq <= state.last_seq && state.messages > 0; seq++) {
          const m = await jsm.streams.getMessage(LEDGER_STREAM, { seq });
          const ev = m && m.subject === LEDGER_BALANCE_SUBJECT ? decodeEvent(LedgerBalanceV1, m.data) : undefined;
          if (ev?.org_id === o) seen.push(ev);
        }
        return seen.length >= 2 ? seen : undefined;
      },
      5_000,
      "top-ups announced",
    );
    expect(announced).toHaveLength(2);
    expect(announced.at(-1)).toMatchObject({ org_id: o, topped_up_minor: 3_500, reason: "top_up" });
  });

  it("of an org never seen read as zero", async () => {
    expect(await client.GetCredits({ org_id: org("nobody") })).toMatchObject({ balance_minor: 0, held_minor: 0, spent_minor: 0, topped_up_minor: 0 });
  });

  it("need the admin token; reads need a caller token too", async () => {
    const anon = createClient(ledgerService(), `127.0.0.1:${ledger.grpcPort}`, { timeoutMs: 5_000 });
    await expect(anon.TopUp({ org_id: org("t2"), amount_minor: 5, idempotency_key: "x" })).rejects.toMatchObject({ code: "unauthenticated_caller" });
    const wrong = { metadata: { authorization: `Bearer ${TOKEN.replace(/.$/, "X")}` } };
    await expect(anon.TopUp({ org_id: org("t2"), amount_minor: 5, idempotency_key: "x" }, wrong)).rejects.toMatchObject({ code: "unauthenticated_caller" });
    await expect(anon.GetCredits({ org_id: org("t2") })).rejects.toMatchObject({ code: "unauthenticated_caller" });
    expect((await client.GetCredits({ org_id: org("t2") })).balance_minor).toBe(0);
    anon.close();
  });
});

describe("leases", () => {
  it("never grant more than balance − held", async () => {
    const o = org("l1");
    await topUp(o, 1_000);
    const a = await lease(o, 700);
    expect(a.granted_minor).toBe(700);
    // 300 left: the need (100) in full, beyond it at most a quarter of what is available (75).
    const b = await lease(o, 700, 100);
    expect(b.granted_minor).toBe(175);
    expect(b.available_after_minor).toBe(125);
    await expect(lease(o, 200, 200)).rejects.toMatchObject({ code: "insufficient_credits" });
    expect(await client.GetCredits({ org_id: o })).toMatchObject({ balance_minor: 1_000, held_minor: 875 });
    await topUp(o, 200);
    const extended = await lease(o, 500, 100, a.lease_id);
    expect(extended).toMatchObject({ lease_id: a.lease_id, granted_minor: 700 + 100 + 81 });
    expect((await client.GetCredits({ org_id: o })).held_minor).toBeLessThanOrEqual(1_200);
  });

  it("refuse malformed requests and leases that are not open", async () => {
    const o = org("l4");
    await topUp(o, 1_000);
    await expect(lease("", 10)).rejects.toMatchObject({ code: "invalid_request" });
    await expect(lease(o, -5, 0)).rejects.toMatchObject({ code: "invalid_request" });
    await expect(lease(o, 0, 0)).rejects.toMatchObject({ code: "invalid_request" });
    await expect(lease(o, 10, 20)).rejects.toMatchObject({ code: "invalid_request" });
    await expect(lease(o, 0, 0, "lease_unknown")).rejects.toMatchObject({ code: "not_found" });
    const l = await lease(o, 100);
    await expect(lease(org("l4-other"), 0, 0, l.lease_id)).rejects.toMatchObject({ code: "not_found" });
    await expect(client.ReleaseLease({ lease_id: "lease_unknown", org_id: o, consumed_minor: 0 })).rejects.toMatchObject({ code: "not_found" });
    // Released only by its organization (another's is not found) and, when named, its holder.
    await expect(client.ReleaseLease({ lease_id: l.lease_id, org_id: org("l4-other"), consumed_minor: 0 })).rejects.toMatchObject({ code: "not_found" });
    await expect(client.ReleaseLease({ lease_id: l.lease_id, org_id: o, holder: "another-replica", consumed_minor: 0 })).rejects.toMatchObject({ code: "forbidden" });
    expect((await client.GetCredits({ org_id: o })).held_minor).toBe(100);
    await client.ReleaseLease({ lease_id: l.lease_id, org_id: o, consumed_minor: 0 });
    await expect(lease(o, 10, 10, l.lease_id)).rejects.toMatchObject({ code: "not_found" });
  });

  it("renew without adding credit when asked for nothing, capped at the longest TTL", async () => {
    const o = org("l5");
    await topUp(o, 1_000);
    const l = await lease(o, 100, 100, "", 5_000);
    const renewed = await lease(o, 0, 0, l.lease_id, 10_000_000);
    expect(renewed).toMatchObject({ lease_id: l.lease_id, granted_minor: 100, remaining_minor: 100 });
    expect(renewed.expires_at_ms).toBeGreaterThan(l.expires_at_ms);
    expect(renewed.expires_at_ms).toBeLessThanOrEqual(Date.now() + 120_000);
    expect((await client.GetCredits({ org_id: o })).held_minor).toBe(100);
    expect(renewed.available_after_minor).toBe(900);
  });

  it("renew without waiting on the organization's account row (another transaction holds it); never a lease that expired", async () => {
    const o = org("l5b");
    await topUp(o, 1_000);
    const l = await lease(o, 100, 100, "", 60_000);
    // A transaction holding the account row, as a grant or an apply does for a moment (here: for good).
    const holder = await ledger.db.connection().execute(async (conn) => {
      await sql`BEGIN`.execute(conn);
      await sql`SELECT 1 FROM accounts WHERE org_id = ${o} FOR UPDATE`.execute(conn);
      try {
        const renewed = await Promise.race([lease(o, 0, 0, l.lease_id), new Promise<"blocked">((r) => setTimeout(() => r("blocked"), 3_000))]);
        return renewed;
      } finally {
        await sql`ROLLBACK`.execute(conn);
      }
    });
    expect(holder).toMatchObject({ lease_id: l.lease_id, granted_minor: 100 });
    // An expired lease is not brought back by a renewal.
    const short = await lease(o, 50, 50, "", 1_000);
    await new Promise((r) => setTimeout(r, 1_100));
    await expect(lease(o, 0, 0, short.lease_id)).rejects.toMatchObject({ code: "not_found" });
    expect(await bookViolations(ledger.db)).toEqual([]);
  });

  it("granted concurrently never add up to more than the balance", async () => {
    const o = org("l6");
    await topUp(o, 1_000);
    const results = await Promise.allSettled(Array.from({ length: 30 }, () => lease(o, 100, 10)));
    const granted = results.flatMap((r) => (r.status === "fulfilled" ? [r.value.granted_minor] : []));
    for (const r of results) if (r.status === "rejected") expect(r.reason).toMatchObject({ code: "insufficient_credits" });
    const total = granted.reduce((a, b) => a + b, 0);
    expect(total).toBeLessThanOrEqual(1_000);
    expect(granted.every((g) => g >= 10)).toBe(true);
    expect(await client.GetCredits({ org_id: o })).toMatchObject({ balance_minor: 1_000, held_minor: total });
  });

  it("bill an event that costs more than its lease was ever granted (a provider's overrun, or a forgery) at the grant, keeping it as sent", async () => {
    const overLease = async () => {
      const text = await (await fetch(`http://127.0.0.1:${ledger.opsPort}/metrics`)).text();
      return Number(/^ledger_usage_over_lease_total(?:\{[^}]*\})? (\S+)$/m.exec(text)?.[1] ?? 0);
    };
    const before = await overLease();
    const o = org("over-lease");
    await topUp(o, 10_000);
    const l = await lease(o, 100);
    const fits = event(o, l.lease_id, l.granted_minor);
    const over = event(o, l.lease_id, 5_000);
    await publish(fits);
    await client.GetUsage({ request_id: fits.request_id, org_id: o, wait_ms: 3_000 });
    expect(await overLease()).toBe(before);
    await publish(over);
    const record = await client.GetUsage({ request_id: over.request_id, org_id: o, wait_ms: 3_000 });
    expect(await overLease()).toBe(before + 1);
    expect(record.cost_minor).toBe(l.granted_minor);
    expect(await client.GetCredits({ org_id: o })).toMatchObject({ balance_minor: 10_000 - 2 * l.granted_minor, spent_minor: 2 * l.granted_minor });
    const kept = await sql<{ reason: string; error: string }>`SELECT reason, error FROM dead_letters WHERE request_id = ${over.request_id}`.execute(ledger.db);
    expect(kept.rows).toEqual([{ reason: "capped", error: `billed ${l.granted_minor} (the lease's grant) of the 5000 it claims` }]);
  });

  it("settle usage against the lease, and a release keeps what is still on its way", async () => {
    const o = org("l2");
    await topUp(o, 10_000);
    const l = await lease(o, 1_000);
    const ev = event(o, l.lease_id, 120);
    await publish(ev);
    await client.GetUsage({ request_id: ev.request_id, org_id: o, wait_ms: 3_000 });
    expect(await client.GetCredits({ org_id: o })).toMatchObject({ balance_minor: 9_880, spent_minor: 120, held_minor: 880 });
    const holds = await client.ListHolds({ org_id: o });
    expect(holds.leases).toEqual([expect.objectContaining({ lease_id: l.lease_id, status: "open", granted_minor: 1_000, remaining_minor: 880, applied_minor: 120 })]);
    // The holder consumed 120 + 80; the second event has not arrived yet: 80 stays held.
    const released = await client.ReleaseLease({ lease_id: l.lease_id, org_id: o, consumed_minor: 200 });
    expect(released).toMatchObject({ status: "released", remaining_minor: 80 });
    expect((await client.GetCredits({ org_id: o })).held_minor).toBe(80);
    const late = event(o, l.lease_id, 80);
    await publish(late);
    await client.GetUsage({ request_id: late.request_id, org_id: o, wait_ms: 3_000 });
    expect(await client.GetCredits({ org_id: o })).toMatchObject({ balance_minor: 9_800, spent_minor: 200, held_minor: 0 });
    // A release replayed (the holder retried) changes nothing.
    expect(await client.ReleaseLease({ lease_id: l.lease_id, org_id: o, consumed_minor: 200 })).toMatchObject({ status: "released", remaining_minor: 0, applied_minor: 200 });
  });

  it("of a vanished holder expire and are released by the sweeper once the consumer has caught up past the expiry", async () => {
    const o = org("l3");
    await topUp(o, 500);
    await lease(o, 400, 400, "", 1_000);
    expect((await client.GetCredits({ org_id: o })).held_minor).toBe(400);
    await eventually(async () => ((await client.GetCredits({ org_id: o })).held_minor === 0 ? true : undefined), 15_000, "expired lease released");
    expect((await client.ListHolds({ org_id: o })).leases).toEqual([expect.objectContaining({ status: "expired", remaining_minor: 0, granted_minor: 400 })]);
    // The balance is untouched: an expiry only frees the hold.
    expect((await client.GetCredits({ org_id: o })).balance_minor).toBe(500);
  });
});

describe("usage events", () => {
  it("are applied exactly once, however often they arrive", async () => {
    const o = org("u1");
    await topUp(o, 5_000);
    const l = await lease(o, 1_000);
    const ev = event(o, l.lease_id, 77);
    await publish(ev);
    await publish(ev); // JetStream drops this duplicate id
    await publish(ev, `${ev.request_id}-bypass`); // this one reaches the ledger: the unique key stops it
    const later = event(o, l.lease_id, 1);
    await publish(later);
    await client.GetUsage({ request_id: later.request_id, org_id: o, wait_ms: 3_000 });
    const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE request_id = ${ev.request_id}`.execute(ledger.db);
    expect(rows.rows[0]!.n).toBe(1);
    expect(await client.GetUsage({ request_id: ev.request_id, org_id: o, wait_ms: 0 })).toMatchObject({ request_id: ev.request_id, org_id: o, cost_minor: 77, created_at_ms: ev.created_at_ms });
    await expect(client.GetUsage({ request_id: ev.request_id, org_id: org("u1-other"), wait_ms: 1_000 })).rejects.toMatchObject({
      code: "not_found",
      message: `No usage record for request '${ev.request_id}'.`,
    });
    expect((await client.ListHolds({ org_id: o })).leases[0]).toMatchObject({ remaining_minor: 1_000 - 78, applied_minor: 78 });
    expect(await client.GetCredits({ org_id: o })).toMatchObject({ balance_minor: 5_000 - 78, spent_minor: 78 });
    const unbalanced = await sql<{ txn_id: string }>`SELECT txn_id FROM journal_entries GROUP BY txn_id HAVING sum(amount_minor) <> 0`.execute(ledger.db);
    expect(unbalanced.rows).toEqual([]);
  });

  it("are readable only by their organization, and a lookup waits for a record on its way", async () => {
    const o = org("u2");
    await topUp(o, 5_000);
    const ev = event(o, "", 5);
    const asked = new Date();
    const pending = client.GetUsage({ request_id: ev.request_id, org_id: o, wait_ms: 3_000 });
    // Published after the lookup was sent: the record cannot exist before it.
    await publish(ev);
    const rec = await pending;
    expect(rec).toMatchObject({ request_id: ev.request_id, cost_minor: 5, input_tokens: 10, output_tokens: 5 });
    const recorded = await sql<{ recorded_at: Date }>`SELECT recorded_at FROM usage_records WHERE request_id = ${ev.request_id}`.execute(ledger.db);
    expect(recorded.rows[0]!.recorded_at.getTime()).toBeGreaterThanOrEqual(asked.getTime());
    await expect(client.GetUsage({ request_id: ev.request_id, org_id: org("someone-else"), wait_ms: 0 })).rejects.toMatchObject({ code: "not_found" });
    await expect(client.GetUsage({ request_id: "req_missing", org_id: o, wait_ms: 100 })).rejects.toMatchObject({ code: "not_found" });
  });

  it("flowing while one of two ledgers stops are all applied at once by the other, none left to the 30 s ack wait", async () => {
    const o = org("u4");
    await topUp(o, 100_000);
    const second = createLedger(loadConfig({ ...env, LEDGER_GRPC_PORT: String(await freePort()) }));
    await second.start();
    const events = Array.from({ length: 300 }, (_, i) => event(o, "", 1 + (i % 3)));
    // Published while the second ledger pulls beside the first, then as it stops, then after.
    let stopped: Promise<void> | undefined;
    for (const [i, ev] of events.entries()) {
      await publish(ev);
      if (i === 100) stopped = second.stop();
      if (i % 20 === 0) await new Promise((r) => setTimeout(r, 5));
    }
    await stopped;
    const spent = events.reduce((n, ev) => n + ev.cost_minor, 0);
    // Well inside the durable's 30 s ack wait: nothing was delivered to a pull that was gone.
    await eventually(async () => ((await client.GetCredits({ org_id: o })).spent_minor === spent ? true : undefined), 8_000, "every event applied");
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE org_id = ${o}`.execute(ledger.db);
    expect(n.rows[0]!.n).toBe(300);
  });

  it("published while the ledger is down are all applied when it returns", async () => {
    const o = org("u3");
    await topUp(o, 10_000);
    await ledger.stop();
    const events = Array.from({ length: 20 }, (_, i) => event(o, "", i + 1));
    for (const ev of events) await publish(ev);
    ledger = createLedger(loadConfig(env));
    await ledger.start();
    await client.GetUsage({ request_id: events.at(-1)!.request_id, org_id: o, wait_ms: 5_000 });
    await eventually(async () => ((await client.GetCredits({ org_id: o })).spent_minor === 210 ? true : undefined), 15_000, "all applied");
    expect((await client.GetCredits({ org_id: o })).balance_minor).toBe(10_000 - 210);
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE org_id = ${o}`.execute(ledger.db);
    expect(n.rows[0]!.n).toBe(20);
  });
});

// Every test leaves the books balanced (top-ups − spend, holds, journal), whichever ran before it:
// checked after each one, once the events it published were applied.
afterEach(async () => {
  await eventually(async () => ((await bookViolations(ledger.db)).length === 0 ? true : undefined), 5_000, "books balance").catch(async () => {
    expect(await bookViolations(ledger.db)).toEqual([]);
  });
});
