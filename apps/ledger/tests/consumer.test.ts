import { connect, type NatsConnection } from "@nats-io/transport-node";
import { AckPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager, type JetStreamClient, type JetStreamManager } from "@nats-io/jetstream";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { USAGE_BATCH_SUBJECT, USAGE_STREAM, USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually, startNats, type NatsHandle } from "@gateway/testing";
import { sql } from "@gateway/db";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { ensureUsageStream } from "../src/consumer/ensure-stream.js";
import { bookViolations, usageEvent, migratedDatabase } from "./support.js";

/**
 * The usage consumer as operations see it: settings of the stream it finds, several replicas on one
 * durable, malformed events, a durable deleted under it, health endpoints.
 */
const TOKEN = "ledger-consumer-admin-token";
const SECOND_NS = 1e9;
let nats: NatsHandle;
let env: Record<string, string>;
let nc: NatsConnection;
let js: JetStreamClient;
let jsm: JetStreamManager;
const ledgers: Ledger[] = [];
let client: TypedClient<LedgerServiceMethods>;

const publish = (ev: UsageEventV1, msgID = ev.request_id) => js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID });
const credits = (orgId: string) => client.GetCredits({ org_id: orgId });
const records = async (orgId: string) => (await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE org_id = ${orgId}`.execute(ledgers[0]!.db)).rows[0]!.n;

async function boot(): Promise<Ledger> {
  const l = createLedger(loadConfig(env));
  await l.start();
  ledgers.push(l);
  return l;
}

async function metric(l: Ledger, line: string): Promise<number> {
  const body = await (await fetch(`http://127.0.0.1:${l.opsPort}/metrics`)).text();
  const found = body.split("\n").find((x) => x.startsWith(line));
  return found ? Number(found.slice(found.lastIndexOf(" ") + 1)) : 0;
}
const applied = (l: Ledger, result: string) => metric(l, `ledger_usage_events_total{result="${result}",service="ledger"}`);

beforeAll(async () => {
  const db = await migratedDatabase("ledger_consumer");
  nats = await startNats();
  nc = await connect({ servers: nats.url });
  js = jetstream(nc);
  jsm = await jetstreamManager(nc);
  // Someone (an older data-plane, an operator) made the stream and the durable with other settings.
  await jsm.streams.add({ name: USAGE_STREAM, subjects: [USAGE_SUBJECT], storage: StorageType.File, retention: RetentionPolicy.Limits, duplicate_window: 10 * SECOND_NS, max_age: 3_600 * SECOND_NS });
  await jsm.consumers.add(USAGE_STREAM, { durable_name: "ledger", ack_policy: AckPolicy.Explicit, ack_wait: 5 * SECOND_NS, max_ack_pending: 10 });
  env = {
    LEDGER_DATABASE_URL: db,
    LEDGER_MIGRATE_ON_START: "true",
    LEDGER_NATS_URL: nats.url,
    LEDGER_GRPC_PORT: "0",
    LEDGER_OPS_PORT: "0",
    LEDGER_ADMIN_TOKEN: TOKEN,
    LEDGER_LOG_LEVEL: "silent",
  };
  const first = await boot();
  client = createClient(ledgerService(), `127.0.0.1:${first.grpcPort}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
});

afterAll(async () => {
  client?.close();
  await nc?.close();
  for (const l of ledgers) await l.stop();
  await nats?.stop();
});

describe("usage consumer", () => {
  it("brings the stream and the durable it finds to the settings billing relies on", async () => {
    const s = await jsm.streams.info(USAGE_STREAM);
    expect(s.config.subjects).toEqual(expect.arrayContaining(["usage.v1.>"]));
    expect(s.config.duplicate_window).toBe(120 * SECOND_NS);
    // The default replay window (72 h), and a byte limit derived from it and the node's store (stream-sizing.ts).
    expect(s.config.max_age).toBe(72 * 3_600 * SECOND_NS);
    expect(s.config.max_bytes).toBe(ledgers[0]!.ctx.config.streams.usage.maxBytes);
    expect(s.config.max_bytes).toBeGreaterThan(6 * 1024 ** 3);
    const c = await jsm.consumers.info(USAGE_STREAM, "ledger");
    expect(c.config).toMatchObject({ ack_wait: 30 * SECOND_NS, max_ack_pending: 20_000 });
    // LEDGER_ACK_WAIT_MS, as a ledger started with it sets it on the durable; then back to the default.
    const log = ledgers[0]!.ctx.log;
    await ensureUsageStream(jsm, { ...ledgers[0]!.ctx.config, ackWaitMs: loadConfig({ ...env, LEDGER_ACK_WAIT_MS: "3000" }).ackWaitMs }, log);
    expect((await jsm.consumers.info(USAGE_STREAM, "ledger")).config.ack_wait).toBe(3 * SECOND_NS);
    await ensureUsageStream(jsm, ledgers[0]!.ctx.config, log);
    expect((await jsm.consumers.info(USAGE_STREAM, "ledger")).config.ack_wait).toBe(30 * SECOND_NS);
  });

  it("reports health, readiness and metrics", async () => {
    const l = ledgers[0]!;
    expect((await fetch(`http://127.0.0.1:${l.opsPort}/healthz`)).status).toBe(200);
    expect((await fetch(`http://127.0.0.1:${l.opsPort}/readyz`)).status).toBe(200);
    expect(await (await fetch(`http://127.0.0.1:${l.opsPort}/metrics`)).text()).toContain("ledger_apply_duration_seconds");
  });

  it("dead-letters malformed events without holding up the ones behind them", async () => {
    const o = "org_c_invalid";
    await client.TopUp({ org_id: o, amount_minor: 1_000, idempotency_key: "c-invalid" });
    await js.publish(USAGE_SUBJECT, new TextEncoder().encode("not json"), { msgID: "bad-1" });
    await js.publish(USAGE_SUBJECT, encodeEvent({ ...usageEvent(o, "", 5), cost_minor: -5 }), { msgID: "bad-2" });
    const ok = usageEvent(o, "", 7);
    await publish(ok);
    await client.GetUsage({ request_id: ok.request_id, org_id: o, wait_ms: 3_000 });
    expect(await credits(o)).toMatchObject({ balance_minor: 993, spent_minor: 7 });
    expect(await applied(ledgers[0]!, "dead_lettered")).toBe(2);
    expect(await metric(ledgers[0]!, 'ledger_dead_letters_total{reason="invalid",service="ledger"}')).toBe(2);
    // Kept for the billing team, byte for byte.
    const dead = await sql<{ reason: string; payload: Buffer }>`SELECT reason, payload FROM dead_letters ORDER BY id`.execute(ledgers[0]!.db);
    expect(dead.rows.map((r) => [r.reason, r.payload.toString()])).toEqual([
      ["invalid", "not json"],
      ["invalid", expect.stringContaining('"cost_minor":-5')],
    ]);
  });

  it("applies every event of a usage.v1.batch message once, dead-letters only its bad line, and acks the message", async () => {
    const o = "org_c_batch";
    await client.TopUp({ org_id: o, amount_minor: 1_000, idempotency_key: "c-batch" });
    const deadBefore = await applied(ledgers[0]!, "dead_lettered");
    const events = [usageEvent(o, "", 11), usageEvent(o, "", 13), usageEvent(o, "", 17)];
    const lines = [JSON.stringify(events[0]), "{not an event", JSON.stringify(events[1]), "", JSON.stringify(events[2])];
    await js.publish(USAGE_BATCH_SUBJECT, lines.join("\n"));
    // The same events again in a second batch (a data-plane replaying from its spool): nothing more applies.
    await js.publish(USAGE_BATCH_SUBJECT, events.map((e) => JSON.stringify(e)).join("\n"));
    await client.GetUsage({ request_id: events[2]!.request_id, org_id: o, wait_ms: 3_000 });
    await eventually(async () => ((await credits(o)).spent_minor === 41 ? true : undefined), 15_000, "the batch applied");
    expect(await credits(o)).toMatchObject({ balance_minor: 959, spent_minor: 41 });
    expect(await records(o)).toBe(3);
    expect((await applied(ledgers[0]!, "dead_lettered")) - deadBefore).toBe(1);
    const dead = await sql<{ subject: string; payload: Buffer }>`SELECT subject, payload FROM dead_letters WHERE reason = 'invalid' ORDER BY id DESC LIMIT 1`.execute(ledgers[0]!.db);
    expect(dead.rows.map((r) => [r.subject, r.payload.toString()])).toEqual([[USAGE_BATCH_SUBJECT, "{not an event"]]);
    // Every message is acknowledged: nothing is left pending for redelivery.
    await eventually(async () => ((await jsm.consumers.info(USAGE_STREAM, "ledger")).num_ack_pending === 0 ? true : undefined), 15_000, "acked");
  });

  it("applies each event once when several ledger replicas share the durable", async () => {
    const second = await boot();
    const o = "org_c_replicas";
    await client.TopUp({ org_id: o, amount_minor: 100_000, idempotency_key: "c-replicas" });
    const before = (await applied(ledgers[0]!, "applied")) + (await applied(second, "applied"));
    const events = Array.from({ length: 60 }, (_, i) => usageEvent(o, "", i + 1));
    await Promise.all(events.map((ev) => publish(ev)));
    // The same events again under other message ids: JetStream keeps them, the ledgers must not apply them.
    await Promise.all(events.slice(0, 20).map((ev) => publish(ev, `${ev.request_id}-again`)));
    const spent = events.reduce((a, ev) => a + ev.cost_minor, 0);
    await eventually(async () => ((await credits(o)).spent_minor === spent ? true : undefined), 10_000, "all events applied");
    expect(await records(o)).toBe(60);
    expect((await credits(o)).balance_minor).toBe(100_000 - spent);
    const after = (await applied(ledgers[0]!, "applied")) + (await applied(second, "applied"));
    expect(after - before).toBe(60);
    await second.stop();
    await second.stop(); // a second stop is a no-op
  });

  it("recreates a durable deleted under it and keeps applying; the replay changes nothing", async () => {
    const o = "org_c_deleted";
    await client.TopUp({ org_id: o, amount_minor: 1_000, idempotency_key: "c-deleted" });
    const first = usageEvent(o, "", 10);
    await publish(first);
    await client.GetUsage({ request_id: first.request_id, org_id: o, wait_ms: 3_000 });
    await jsm.consumers.delete(USAGE_STREAM, "ledger");
    const second = usageEvent(o, "", 20);
    await publish(second);
    await client.GetUsage({ request_id: second.request_id, org_id: o, wait_ms: 5_000 });
    // The recreated durable starts at the beginning of the stream: all of it is redelivered.
    await eventually(
      async () => {
        const info = await jsm.consumers.info(USAGE_STREAM, "ledger");
        return info.num_ack_pending === 0 && info.num_pending === 0 ? true : undefined;
      },
      10_000,
      "replay drained",
    );
    expect(await credits(o)).toMatchObject({ balance_minor: 970, spent_minor: 30 });
    expect(await records(o)).toBe(2);
  });

  it("leaves no pull waiting at the server while idle, so a publish is acknowledged without delivering on its path", async () => {
    const o = "org_c_idle";
    await client.TopUp({ org_id: o, amount_minor: 1_000, idempotency_key: "c-idle" });
    const ev = usageEvent(o, "", 5);
    await publish(ev);
    await client.GetUsage({ request_id: ev.request_id, org_id: o, wait_ms: 3_000 });
    // Several looks over more than one idle pause: a waiting pull (a long-lived subscription) would show in each.
    for (let i = 0; i < 8; i++) {
      const info = await jsm.consumers.info(USAGE_STREAM, "ledger");
      expect(info.num_waiting).toBe(0);
      await new Promise((r) => setTimeout(r, 15));
    }
    expect(await records(o)).toBe(1);
  });

  // Every test leaves books that balance, whichever ran before it.
  afterEach(async () => {
    await eventually(async () => ((await bookViolations(ledgers[0]!.db)).length === 0 ? true : undefined), 5_000, "books balance").catch(async () => {
      expect(await bookViolations(ledgers[0]!.db)).toEqual([]);
    });
  });
});
