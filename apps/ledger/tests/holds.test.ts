import { connect, type NatsConnection } from "@nats-io/transport-node";
import { jetstream, type JetStreamClient } from "@nats-io/jetstream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually, freePort, startNats, type NatsHandle } from "@gateway/testing";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { bookViolations, usageEvent, migratedDatabase } from "./support.js";

/**
 * The hold rule: a closed lease (expired or released) keeps what it holds until the usage it covers
 * has been applied, however long the consumer lags; only once the consumer has applied everything
 * published before the lease's settle time is the rest released.
 */
const TOKEN = "ledger-holds-admin-token";
let nats: NatsHandle;
let nc: NatsConnection;
let js: JetStreamClient;
let env: Record<string, string>;
let rpcOnly: Ledger;
let consumer: Ledger | undefined;
let client: TypedClient<LedgerServiceMethods>;

const publish = (ev: UsageEventV1) => js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
const credits = (orgId: string) => client.GetCredits({ org_id: orgId });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

beforeAll(async () => {
  const url = await migratedDatabase("ledger_holds");
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
    LEDGER_LEASE_MAX_TTL_MS: "1000",
    LEDGER_USAGE_ARRIVAL_MS: "500",
    LEDGER_SETTLE_SKEW_MS: "200",
  };
  // Serves leases, reads and sweeps, but applies nothing: a ledger whose consumers are all stopped.
  rpcOnly = createLedger(loadConfig({ ...env, LEDGER_CONSUME: "false" }));
  await rpcOnly.start();
  client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
  nc = await connect({ servers: nats.url });
  js = jetstream(nc);
});

afterAll(async () => {
  client?.close();
  await nc?.close();
  await consumer?.stop();
  await rpcOnly?.stop();
  await nats?.stop();
});

it("keeps the holds of expired and released leases while usage is unapplied, and never lets spend outrun the balance", async () => {
  const o = "org_h_lag";
  await client.TopUp({ org_id: o, amount_minor: 1_000, idempotency_key: "h-lag" });
  // Replica A takes a lease, spends 600 of it and vanishes; replica B spends 300 and hands back.
  const a = await client.AcquireLease({ org_id: o, lease_id: "", holder: "a", amount_minor: 700, min_amount_minor: 700, ttl_ms: 1_000 });
  const b = await client.AcquireLease({ org_id: o, lease_id: "", holder: "b", amount_minor: 300, min_amount_minor: 300, ttl_ms: 1_000 });
  const spentA = [usageEvent(o, a.lease_id, 350), usageEvent(o, a.lease_id, 250)];
  const spentB = [usageEvent(o, b.lease_id, 300)];
  for (const ev of [...spentA, ...spentB]) await publish(ev);
  await client.ReleaseLease({ lease_id: b.lease_id, org_id: o, consumed_minor: 300 });

  // Far longer than the lease TTL, the arrival margin and the skew: nothing is applied, nothing released.
  await sleep(3_000);
  const holds = (await client.ListHolds({ org_id: o })).leases;
  expect(holds.find((l) => l.lease_id === a.lease_id)).toMatchObject({ status: "expired", remaining_minor: 700 });
  expect(holds.find((l) => l.lease_id === b.lease_id)).toMatchObject({ status: "released", remaining_minor: 300 });
  expect(await credits(o)).toMatchObject({ balance_minor: 1_000, held_minor: 1_000 });
  // So a new lease finds nothing to grant: the lag cannot turn into spending beyond the balance.
  await expect(client.AcquireLease({ org_id: o, lease_id: "", holder: "c", amount_minor: 100, min_amount_minor: 1, ttl_ms: 1_000 })).rejects.toMatchObject({ code: "insufficient_credits" });
  // A lookup of a request whose usage is still on its way says so, rather than "not found".
  await expect(client.GetUsage({ request_id: spentA[0]!.request_id, org_id: o, wait_ms: 100 })).rejects.toMatchObject({ code: "usage_pending" });

  // The consumer returns: usage is applied, then what A did not spend is released.
  consumer = createLedger(loadConfig({ ...env, LEDGER_GRPC_PORT: "0" }));
  await consumer.start();
  await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 10_000, "holds settled");
  expect(await credits(o)).toMatchObject({ balance_minor: 100, spent_minor: 900, held_minor: 0 });
  const after = (await client.ListHolds({ org_id: o })).leases;
  expect(after.find((l) => l.lease_id === a.lease_id)).toMatchObject({ status: "expired", remaining_minor: 0, applied_minor: 600 });
  expect(after.find((l) => l.lease_id === b.lease_id)).toMatchObject({ status: "released", remaining_minor: 0, applied_minor: 300 });
  // Caught up: a request id that was never published is simply not found.
  await expect(client.GetUsage({ request_id: "req_never_published", org_id: o, wait_ms: 0 })).rejects.toMatchObject({ code: "not_found" });
  expect(await bookViolations(consumer.db)).toEqual([]);
});
