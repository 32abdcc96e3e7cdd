/**
 * Steady-rate benchmark: the ledger at moderate load, where batches are small and what a batch
 * costs (its transaction, its statements, its acks) dominates what an event costs. Publishes
 * `usage.v1.batch` messages of a few events at a fixed rate, the way data-planes coalesce them,
 * while one ledger consumes; reports the CPU per event of the ledger process and of Postgres, the
 * mean batch, and how long after its publish an event's usage record is readable (polled every
 * 50 ms on the latest event, as GET /v1/usage would find it). Postgres as the hot-path bench runs
 * it (fsync off). Bounded: a fixed duration, then it stops by itself.
 *
 *   make build && node bench/ledger-steady.ts [events_per_s=2000] [seconds=15] [events_per_message=4] [ledger_script=apps/ledger/dist/main.js]
 *
 * BENCH_SIGNED=1 signs every message as a data-plane does and gives the ledger the key, so that it
 * checks each signature and recomputes each cost from the catalog's prices (docs/security.md): the
 * cost of the checks, against a run without.
 */
import { readFileSync } from "node:fs";
import { connect, headers as natsHeaders } from "@nats-io/transport-node";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import pg from "pg";
import { USAGE_BATCH_SUBJECT, USAGE_SIGNATURE_HEADER, signUsage, usageKey, type UsageEventV1 } from "@gateway/events";
import { createDatabase, startNats, startPostgres } from "@gateway/testing";
import { chatUsageEvent, cpuMicros, fundOrgs, publishBenchPrices, ledgerEnv, pct, pending, sleep, spawnNode, step, stopChild, treeCpu, treeDelta, waitReady } from "./ledger-common.ts";

const RATE = Number(process.argv[2] ?? 2000);
const SECONDS = Number(process.argv[3] ?? 15);
const PER_MESSAGE = Number(process.argv[4] ?? 4);
const SCRIPT = process.argv[5] ?? "apps/ledger/dist/main.js";
const ORGS = 4;
const TOKEN = "bench-ledger-admin-token-0123";

step("starting Postgres and NATS");
const pgServer = await startPostgres();
const nats = await startNats();
const dbUrl = await createDatabase(pgServer.url, "ledger_steady");
const SIGNING = process.env.BENCH_SIGNED === "1" || process.env.BENCH_SIGNED === "headers" ? usageKey("bench-usage-signing-key-0123456789abcdef") : undefined;
// BENCH_SIGNED=headers: the messages carry the signature, the ledger does not check it (what the header alone costs).
const env = await ledgerEnv(dbUrl, nats.url, TOKEN, process.env.BENCH_SIGNED === "1" ? { LEDGER_USAGE_SIGNING_KEYS: "bench-usage-signing-key-0123456789abcdef" } : {});
// The catalog's prices, as the control-plane publishes them: what a checking ledger prices events with.
await publishBenchPrices(nats.url);
const ledger = spawnNode(SCRIPT, env);
process.once("exit", () => ledger.kill("SIGKILL"));
await waitReady(Number(env.LEDGER_OPS_PORT));
const leases = await fundOrgs(env, "steady", ORGS);

const nc = await connect({ servers: nats.url });
const js = jetstream(nc);
const jsm = await jetstreamManager(nc);
const db = new pg.Client({ connectionString: dbUrl, application_name: "steady-bench" });
await db.connect();
const run = Date.now();
let seq = 0;
const event = (): UsageEventV1 => {
  const j = seq++;
  // Most traffic is one organization (one key, one lease), as in the hot-path bench.
  const org = j % 8 === 0 ? 1 + (j % (ORGS - 1)) : 0;
  return chatUsageEvent({ requestId: `req_steady_${run}_${j}`, prefix: "steady", org, leaseId: leases[org]!, j, createdAtMs: Date.now() });
};
const encoder = new TextEncoder();
/** Publishes one message of `n` events; resolves with the last event's id once JetStream acked it. */
const publish = async (n: number): Promise<string> => {
  const evs = Array.from({ length: n }, event);
  const data = encoder.encode(evs.map((e) => JSON.stringify(e)).join("\n"));
  let h: ReturnType<typeof natsHeaders> | undefined;
  if (SIGNING) {
    h = natsHeaders();
    h.set(USAGE_SIGNATURE_HEADER, signUsage(SIGNING, data));
  }
  await js.publish(USAGE_BATCH_SUBJECT, data, h ? { headers: h } : undefined);
  return evs[n - 1]!.request_id;
};

step("warm-up: 3 s");
const load = async (seconds: number, probe: boolean) => {
  const delays: number[] = [];
  const messagesPerTick = RATE / PER_MESSAGE / 1000; // per ms
  const t0 = performance.now();
  const end = t0 + seconds * 1000;
  let sent = 0;
  const inflight = new Set<Promise<unknown>>();
  let latest: { id: string; at: number } | undefined;
  const prober = (async () => {
    while (probe && performance.now() < end) {
      await sleep(50);
      const l = latest;
      if (!l) continue;
      for (;;) {
        const r = await db.query("SELECT 1 FROM ledger.usage_records WHERE request_id = $1", [l.id]);
        if (r.rowCount || performance.now() - l.at > 10_000) break;
        await sleep(1);
      }
      delays.push(performance.now() - l.at);
    }
  })();
  while (performance.now() < end) {
    const due = Math.floor((performance.now() - t0) * messagesPerTick);
    while (sent < due) {
      sent++;
      const at = performance.now();
      const p = publish(PER_MESSAGE).then((id) => {
        if (!latest || at > latest.at) latest = { id, at };
      });
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
    }
    await sleep(1);
  }
  await Promise.all(inflight);
  await prober;
  return { events: sent * PER_MESSAGE, delays };
};
const drain = async () => {
  const t = performance.now();
  while ((await pending(jsm)).pending > 0 && performance.now() - t < 60_000) await sleep(20);
};
await load(3, false);
await drain();

const metrics = async () => {
  const text = await (await fetch(`http://127.0.0.1:${env.LEDGER_OPS_PORT}/metrics`)).text();
  return (name: string) =>
    Number(
      text
        .split("\n")
        .find((l) => l.startsWith(name))
        ?.split(" ")
        .pop() ?? NaN,
    );
};
step(`load: ${RATE} events/s in messages of ${PER_MESSAGE} for ${SECONDS} s (${SCRIPT})`);
const m0 = await metrics();
const ledger0 = cpuMicros(ledger.pid!);
const pg0 = treeCpu(pgServer.pid);
const { events, delays } = await load(SECONDS, true);
await drain();
const ledgerCpu = cpuMicros(ledger.pid!) - ledger0;
const pg1 = treeCpu(pgServer.pid);
const pgCpu = treeDelta(pg0, pg1);
if (process.env.BENCH_PG_BREAKDOWN) {
  // Which Postgres processes spent it (a backend per connection, the WAL writer, autovacuum …).
  const own = (await db.query<{ pid: number }>("SELECT pg_backend_pid() AS pid")).rows[0]!.pid;
  step(`(this bench's own connection: backend ${own})`);
  for (const [pid, cpu] of pg1) {
    const spent = cpu - (pg0.get(pid) ?? 0);
    if (spent <= 0) continue;
    let title = String(pid);
    try {
      title = readFileSync(`/proc/${pid}/cmdline`, "utf8").replace(/\0/g, " ").trim();
    } catch {
      // gone
    }
    step(`postgres ${pid} ${title}: ${Math.round(spent / 1000)} ms`);
  }
}
const m1 = await metrics();
const batches = m1("ledger_apply_batch_events_count") - m0("ledger_apply_batch_events_count");
const batchEvents = m1("ledger_apply_batch_events_sum") - m0("ledger_apply_batch_events_sum");
const applySeconds = m1("ledger_apply_duration_seconds_sum") - m0("ledger_apply_duration_seconds_sum");
const check = await db.query<{ bad: number }>("SELECT count(*)::int AS bad FROM ledger.accounts WHERE balance_minor <> topped_up_minor - spent_minor");

const result = {
  bench: "ledger-steady",
  script: SCRIPT,
  events_per_s: RATE,
  events_per_message: PER_MESSAGE,
  events,
  cpu_us_per_event: { ledger: Math.round(ledgerCpu / events), postgres: Math.round(pgCpu / events) },
  batches,
  mean_batch_events: Math.round((batchEvents / batches) * 10) / 10,
  mean_apply_ms: Math.round((applySeconds / batches) * 1000 * 100) / 100,
  publish_to_record_ms: { p50: Math.round(pct(delays, 50)), p99: Math.round(pct(delays, 99)), max: Math.round(Math.max(...delays)), probes: delays.length },
  accounts_out_of_balance: check.rows[0]!.bad,
};
console.log(
  `ledger at ${RATE} events/s (${PER_MESSAGE} per message): CPU per event ledger ${result.cpu_us_per_event.ledger} µs, Postgres ${result.cpu_us_per_event.postgres} µs; ${batches} batches of ${result.mean_batch_events} events, ${result.mean_apply_ms} ms each; publish → record p50 ${result.publish_to_record_ms.p50} ms p99 ${result.publish_to_record_ms.p99} ms`,
);
console.log(JSON.stringify(result));

await db.end();
await nc.close();
await stopChild(ledger);
await nats.stop();
await pgServer.stop();
process.exit(check.rows[0]!.bad === 0 ? 0 : 1);
