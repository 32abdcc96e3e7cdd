import { connect, type NatsConnection } from "@nats-io/transport-node";
import { AckPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { LEDGER_STREAM, USAGE_STREAM, USAGE_SUBJECT, encodeEvent } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually, freePort, startNatsCluster, type NatsClusterHandle } from "@gateway/testing";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import type { StreamReading } from "../src/consumer/stream-watch.js";
import { usageEvent, migratedDatabase } from "./support.js";

/**
 * On a three-node NATS cluster the ledger keeps USAGE and LEDGER on every node
 * (LEDGER_STREAM_REPLICAS=3), moving a stream an older deployment made with one replica, so an
 * acknowledged usage event survives the loss of a node.
 */
const TOKEN = "ledger-replicas-admin-token";
let cluster: NatsClusterHandle;
let nc: NatsConnection;
let jsm: JetStreamManager;
let ledger: Ledger;
let client: TypedClient<LedgerServiceMethods>;

beforeAll(async () => {
  const db = await migratedDatabase("ledger_replicas");
  cluster = await startNatsCluster(3);
  nc = await connect({ servers: cluster.nodes.map((n) => n.url) });
  jsm = await jetstreamManager(nc, { checkAPI: false });
  // JetStream answers once the cluster elected its meta leader.
  await eventually(() => jsm.getAccountInfo().then(() => true), 40_000, "JetStream cluster ready");
  // And all three nodes joined it (under load that takes a while): an R3 stream can be placed.
  await eventually(() => jsm.streams.add({ name: "PROBE", subjects: ["probe.>"], num_replicas: 3 }).then(() => jsm.streams.delete("PROBE")), 40_000, "three JetStream peers");
  // An older deployment made USAGE with a single replica.
  await jsm.streams.add({ name: USAGE_STREAM, subjects: ["usage.v1.>"], storage: StorageType.File, retention: RetentionPolicy.Limits, num_replicas: 1 });
  // And the control-plane made LEDGER first, with its trial-unlock durable on it.
  await jsm.streams.add({ name: LEDGER_STREAM, subjects: ["ledger.v1.>"], storage: StorageType.File, retention: RetentionPolicy.Limits, num_replicas: 1 });
  await jsm.consumers.add(LEDGER_STREAM, { durable_name: "control-plane-trial", ack_policy: AckPolicy.Explicit });
  const port = await freePort();
  ledger = createLedger(
    loadConfig({
      LEDGER_DATABASE_URL: db,
      LEDGER_MIGRATE_ON_START: "true",
      LEDGER_NATS_URL: cluster.url,
      LEDGER_GRPC_PORT: String(port),
      LEDGER_OPS_PORT: "0",
      LEDGER_ADMIN_TOKEN: TOKEN,
      LEDGER_LOG_LEVEL: "silent",
      LEDGER_STREAM_REPLICAS: "3",
      LEDGER_STREAM_WATCH_INTERVAL_MS: "200",
    }),
  );
  await ledger.start();
  client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
}, 120_000);

afterAll(async () => {
  client?.close();
  await nc?.close();
  await ledger?.stop();
  await cluster?.stop();
});

/** How long a three-node cluster may take to move a stream or durable to three replicas: seconds alone, much longer while the whole suite shares two cores. */
const CONVERGE_MS = 60_000;

it("keeps USAGE and LEDGER on all three nodes, and an acknowledged event survives losing one", async () => {
  // The durable too: a durable left on one node dies with it (this test found that).
  await eventually(async () => ((await jsm.consumers.info(USAGE_STREAM, "ledger")).cluster?.replicas?.length === 2 ? true : undefined), CONVERGE_MS, "durable on three nodes");
  for (const name of [USAGE_STREAM, LEDGER_STREAM]) {
    const info = await eventually(
      async () => {
        const i = await jsm.streams.info(name);
        return i.config.num_replicas === 3 && (i.cluster?.replicas?.length ?? 0) === 2 ? i : undefined;
      },
      CONVERGE_MS,
      `${name} on three nodes`,
    );
    expect(info.config.num_replicas).toBe(3);
  }
  // Durables made before the move come along, so they do not die with a node either.
  await eventually(async () => ((await jsm.consumers.info(LEDGER_STREAM, "control-plane-trial")).cluster?.replicas?.length === 2 ? true : undefined), CONVERGE_MS, "trial durable on three nodes");
  await client.TopUp({ org_id: "org_r", amount_minor: 1_000, idempotency_key: "r-1" });
  const first = usageEvent("org_r", "", 10);
  await jetstream(nc).publish(USAGE_SUBJECT, encodeEvent(first), { msgID: first.request_id });
  await client.GetUsage({ request_id: first.request_id, org_id: "org_r", wait_ms: 5_000 });

  // Watched: three current copies, a quorum (the ledger_stream_* gauges).
  const watched = (want: (r: StreamReading) => boolean, what: string) =>
    eventually(
      async () => {
        const r = ledger.ctx.streamWatch.streams.get(USAGE_STREAM);
        return r && want(r) ? r : undefined;
      },
      CONVERGE_MS,
      what,
    );
  await watched((r) => r.replicas === 3 && r.current === 3 && r.quorum === 1, "three current copies watched");

  // Lose the node that leads the USAGE stream: the other two still form a quorum.
  const leader = (await jsm.streams.info(USAGE_STREAM)).cluster!.leader!;
  const victim = cluster.nodes.find((_, i) => leader.endsWith(`-${i}`)) ?? cluster.nodes[0]!;
  await victim.stop();
  const second = usageEvent("org_r", "", 20);
  await eventually(
    () =>
      jetstream(nc)
        .publish(USAGE_SUBJECT, encodeEvent(second), { msgID: second.request_id })
        .then(() => true),
    CONVERGE_MS,
    "publish acknowledged by the remaining quorum",
  );
  await eventually(() => client.GetUsage({ request_id: second.request_id, org_id: "org_r", wait_ms: 1_000 }), 40_000, "event applied after losing a node");
  expect(await client.GetCredits({ org_id: "org_r" })).toMatchObject({ balance_minor: 970, spent_minor: 30 });
  // And the watch says one copy is gone while the quorum holds.
  await watched((r) => r.current === 2 && r.quorum === 1, "a lost copy watched, the quorum kept");

  // The runbook "one NATS node's volume lost" (docs/operations.md, "Recovery"): the node comes back
  // under its name with an empty store; the cluster rebuilds its copies from the other two.
  await cluster.restart(cluster.nodes.indexOf(victim));
  await watched((r) => r.replicas === 3 && r.current === 3 && r.quorum === 1, "the lost node's copy rebuilt");
  const third = usageEvent("org_r", "", 5);
  await jetstream(nc).publish(USAGE_SUBJECT, encodeEvent(third), { msgID: third.request_id });
  await client.GetUsage({ request_id: third.request_id, org_id: "org_r", wait_ms: 10_000 });
  expect(await client.GetCredits({ org_id: "org_r" })).toMatchObject({ balance_minor: 965, spent_minor: 35 });
  // Every copy holds every event: the rebuilt node has the stream's messages too.
  const state = await jsm.streams.info(USAGE_STREAM);
  expect(state.state.messages).toBe(3);
}, 300_000);
