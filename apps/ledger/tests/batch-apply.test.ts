import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream, type JetStreamClient } from "@nats-io/jetstream";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually, freePort, startNats, type NatsHandle } from "@gateway/testing";
import { sql } from "@gateway/db";
import { applyUsageBatch, createLedger, loadConfig, type Ledger } from "../src/index.js";
import { bookViolations, drained, usageEvent, migratedDatabase } from "./support.js";

/**
 * Batched application as the billing team relies on it: duplicates anywhere change nothing, an
 * event Postgres refuses is isolated and dead-lettered without blocking the stream, two ledgers
 * apply in parallel without deadlocks, and a closed lease keeps its hold until its usage is applied.
 */
const TOKEN = "ledger-batch-admin-token";
let nats: NatsHandle;
let nc: NatsConnection;
let js: JetStreamClient;
let env: Record<string, string>;
const ledgers: Ledger[] = [];
let client: TypedClient<LedgerServiceMethods>;

const publish = (ev: UsageEventV1, msgID = ev.request_id) => js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID });
const credits = (orgId: string) => client.GetCredits({ org_id: orgId });
const db = () => ledgers[0]!.db;

async function boot(extra: Record<string, string> = {}): Promise<Ledger> {
  const l = createLedger(loadConfig({ ...env, ...extra }));
  await l.start();
  ledgers.push(l);
  return l;
}

async function metric(l: Ledger, line: string): Promise<number> {
  const body = await (await fetch(`http://127.0.0.1:${l.opsPort}/metrics`)).text();
  const found = body.split("\n").find((x) => x.startsWith(line));
  return found ? Number(found.slice(found.lastIndexOf(" ") + 1)) : 0;
}

beforeAll(async () => {
  const url = await migratedDatabase("ledger_batch");
  nats = await startNats();
  const port = await freePort();
  env = {
    LEDGER_DATABASE_URL: url,
    LEDGER_MIGRATE_ON_START: "true",
    LEDGER_NATS_URL: nats.url,
    LEDGER_GRPC_PORT: String(port),
    LEDGER_OPS_PORT: "0",
    LEDGER_ADMIN_TOKEN: TOKEN,
    LEDGER_LOG_LEVEL: "silent",
    LEDGER_SWEEP_INTERVAL_MS: "100",
    LEDGER_BATCH_MAX: "50",
    // Every batch waits 25 ms for company: under a steady flow the consumer is always a little behind.
    LEDGER_BATCH_LINGER_MS: "25",
  };
  await boot();
  env.LEDGER_GRPC_PORT = "0";
  client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
  nc = await connect({ servers: nats.url });
  js = jetstream(nc);
});

afterAll(async () => {
  client?.close();
  await nc?.close();
  for (const l of ledgers.reverse()) await l.stop();
  await nats?.stop();
});

describe("a batch", () => {
  it("applies duplicates inside it and across batches once, in one posting per batch", async () => {
    const o = "org_b_dup";
    await client.TopUp({ org_id: o, amount_minor: 10_000, idempotency_key: "b-dup" });
    const lease = await client.AcquireLease({ org_id: o, lease_id: "", holder: "t", amount_minor: 1_000, min_amount_minor: 1_000, ttl_ms: 60_000 });
    const [a, b, c, d] = [10, 20, 30, 40].map((cost) => usageEvent(o, lease.lease_id, cost));
    const first = await applyUsageBatch(db(), [a!, b!, a!, c!]);
    expect([...first.applied].sort()).toEqual([a!.request_id, b!.request_id, c!.request_id].sort());
    const second = await applyUsageBatch(db(), [c!, d!, b!]);
    expect([...second.applied]).toEqual([d!.request_id]);
    expect(await credits(o)).toMatchObject({ balance_minor: 9_900, spent_minor: 100, held_minor: 900 });
    expect((await client.ListHolds({ org_id: o })).leases[0]).toMatchObject({ remaining_minor: 900, applied_minor: 100 });
    // A batch of nothing new writes nothing, not even an empty posting.
    expect(await applyUsageBatch(db(), [a!, d!])).toEqual({ applied: new Set(), postingId: undefined });
    const postings = await sql<{ txn_id: string; total: number }>`
      SELECT txn_id, sum(amount_minor)::int AS total FROM journal_entries WHERE account = ${`org:${o}`} AND kind = 'usage' GROUP BY txn_id ORDER BY min(id)`.execute(db());
    expect(postings.rows.map((p) => p.total)).toEqual([-60, -40]);
    expect(postings.rows.map((p) => p.txn_id)).toEqual([first.postingId, second.postingId]);
    expect(await bookViolations(db())).toEqual([]);
  });

  it("isolates an event Postgres refuses, dead-letters it, and applies the rest without blocking the stream", async () => {
    const o = "org_b_poison";
    await client.TopUp({ org_id: o, amount_minor: 100_000, idempotency_key: "b-poison" });
    const events = Array.from({ length: 40 }, (_, i) => usageEvent(o, "", i + 1));
    // Valid JSON and a valid event, but Postgres text cannot hold a NUL: retrying never helps.
    const poison = usageEvent(o, "", 1_000, { model: "bad\u0000model" });
    events.splice(17, 0, poison);
    await Promise.all(events.map((ev) => publish(ev)));
    const after = usageEvent(o, "", 5);
    await publish(after);
    await client.GetUsage({ request_id: after.request_id, org_id: o, wait_ms: 5_000 });
    await drained(nc, 30_000);
    const good = events.filter((e) => e !== poison).reduce((s, e) => s + e.cost_minor, 0) + 5;
    expect(await credits(o)).toMatchObject({ spent_minor: good, balance_minor: 100_000 - good });
    const dead = await sql<{ reason: string; request_id: string; org_id: string; error: string }>`
      SELECT reason, request_id, org_id, error FROM dead_letters WHERE org_id = ${o}`.execute(db());
    expect(dead.rows).toEqual([{ reason: "rejected", request_id: poison.request_id, org_id: o, error: expect.stringMatching(/^22/) }]);
    await expect(client.GetUsage({ request_id: poison.request_id, org_id: o, wait_ms: 0 })).rejects.toMatchObject({ code: "not_found" });
    expect(await metric(ledgers[0]!, 'ledger_dead_letters_total{reason="rejected",service="ledger"}')).toBe(1);
    expect(await bookViolations(db())).toEqual([]);
  });
});

describe("a usage lookup", () => {
  it("of an id that was never published is not found, not pending, while events keep arriving", async () => {
    const o = "org_b_lookup";
    await client.TopUp({ org_id: o, amount_minor: 1_000_000, idempotency_key: "b-lookup" });
    let flowing = true;
    const flow = (async () => {
      // Always something in flight: the consumer is never caught up with "now" at any instant.
      while (flowing) await Promise.all(Array.from({ length: 20 }, () => publish(usageEvent(o, "", 1))));
    })();
    try {
      // The flow is applying (some of it is in, more is on its way) before the lookup.
      await eventually(
        async () => ((await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE org_id = ${o}`.execute(db())).rows[0]!.n > 0 ? true : undefined),
        15_000,
        "the flow applying",
      );
      await expect(client.GetUsage({ request_id: "req_b_never", org_id: o, wait_ms: 0 })).rejects.toMatchObject({ code: "not_found" });
    } finally {
      flowing = false;
      await flow;
      await drained(nc, 30_000);
    }
  });
});

describe("two ledgers on one durable", () => {
  it("apply in parallel, each event once, with a hot organization and leases, without deadlocks", async () => {
    const second = await boot();
    const orgs = Array.from({ length: 12 }, (_, i) => `org_b_par_${i}`);
    const hot = "org_b_par_hot";
    const leases = new Map<string, string>();
    for (const o of [...orgs, hot]) {
      await client.TopUp({ org_id: o, amount_minor: 10_000_000, idempotency_key: `par-${o}` });
      const l = await client.AcquireLease({ org_id: o, lease_id: "", holder: "t", amount_minor: 1_000_000, min_amount_minor: 1_000_000, ttl_ms: 120_000 });
      leases.set(o, l.lease_id);
    }
    const events: UsageEventV1[] = [];
    for (let i = 0; i < 3_000; i++) {
      // Half of the traffic is one organization; the rest spread over the others.
      const o = i % 2 === 0 ? hot : orgs[i % orgs.length]!;
      events.push(usageEvent(o, leases.get(o)!, 1 + (i % 7)));
    }
    const before = (await metric(ledgers[0]!, 'ledger_usage_events_total{result="applied",service="ledger"}')) + (await metric(second, 'ledger_usage_events_total{result="applied",service="ledger"}'));
    for (let i = 0; i < events.length; i += 500) await Promise.all(events.slice(i, i + 500).map((ev) => publish(ev)));
    // Redeliveries under other message ids reach the ledgers; the primary key stops them.
    await Promise.all(events.slice(0, 300).map((ev) => publish(ev, `${ev.request_id}-again`)));
    await drained(nc, 30_000);
    const firstApplied = await metric(ledgers[0]!, 'ledger_usage_events_total{result="applied",service="ledger"}');
    const secondApplied = await metric(second, 'ledger_usage_events_total{result="applied",service="ledger"}');
    expect(firstApplied + secondApplied - before).toBe(events.length);
    expect(secondApplied).toBeGreaterThan(0);
    for (const o of [...orgs, hot]) {
      const cost = events.filter((e) => e.org_id === o).reduce((s, e) => s + e.cost_minor, 0);
      expect(await credits(o)).toMatchObject({ spent_minor: cost, balance_minor: 10_000_000 - cost, held_minor: 1_000_000 - cost });
    }
    const n = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE org_id LIKE 'org_b_par_%'`.execute(db());
    expect(n.rows[0]!.n).toBe(events.length);
    expect(await bookViolations(db())).toEqual([]);
    await second.stop();
    ledgers.splice(ledgers.indexOf(second), 1);
  });
});
