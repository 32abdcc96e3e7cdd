/**
 * The billing feed under a backlog (docs/billing.md, "The billing feed"): N usage events published
 * while no ledger runs, then one ledger applies them on durable Postgres while a reader follows the
 * feed (gatewayctl usage feed --follow's RPC) from the start. Reports the apply rate with the reader
 * attached (compare with bench/ledger-backlog.ts), how far behind the last commit the reader finished,
 * how long each entry waited between its commit and the reader (p50 / p99 / max), and checks that the
 * reader got every record once, in order.
 *
 *   make build && node bench/ledger-feed.ts [events=50000] [batch=500]
 *   BENCH_FEED_REPLICA=1 node bench/ledger-feed.ts   (the reader on a second, RPC-only ledger: LEDGER_CONSUME=false)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "@nats-io/transport-node";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { USAGE_SUBJECT, encodeEvent } from "@gateway/events";
import { createClient, ledgerService } from "@gateway/proto";
import { createDatabase, startNats, startPostgres } from "@gateway/testing";
import { chatUsageEvent, cpuMicros, fundOrgs, ledgerEnv, pct, pending, sleep, spawnNode, step, stopChild, treeCpu, treeDelta, waitReady } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 50_000);
const BATCH = Number(process.argv[3] ?? 500);
const ORGS = 200;
const TOKEN = "bench-ledger-admin-token-0123";

step("starting durable Postgres and NATS");
const spool = mkdtempSync(join(tmpdir(), "bench-feed-"));
const pgServer = await startPostgres({ durable: true });
const nats = await startNats();
const dbUrl = await createDatabase(pgServer.url, "ledger_feed_bench");
const env = await ledgerEnv(dbUrl, nats.url, TOKEN, { LEDGER_BATCH_MAX: String(BATCH) });

const setup = spawnNode("apps/ledger/dist/main.js", env);
await waitReady(Number(env.LEDGER_OPS_PORT));
const leases = await fundOrgs(env, "feed", ORGS);
await stopChild(setup);

step(`publishing ${N} usage events (no ledger running)`);
const nc = await connect({ servers: nats.url });
const js = jetstream(nc);
const jsm = await jetstreamManager(nc);
const now = Date.now();
for (let i = 0; i < N; i += 2_000) {
  const acks: Promise<unknown>[] = [];
  for (let j = i; j < Math.min(N, i + 2_000); j++) {
    const org = j % 3 === 0 ? 0 : 1 + (j % (ORGS - 1));
    const ev = chatUsageEvent({ requestId: `req_feed_${now}_${j}`, prefix: "feed", org, leaseId: leases[org]!, j, createdAtMs: now + j });
    acks.push(js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id }));
  }
  await Promise.all(acks);
}

step(`backlog: ${(await pending(jsm)).pending} events; starting the ledger and a reader following the feed`);
const pg0 = treeCpu(pgServer.pid);
// The reader's ledger: the one applying, or an RPC-only replica beside it.
const readerEnv = process.env.BENCH_FEED_REPLICA === "1" ? await ledgerEnv(dbUrl, nats.url, TOKEN, { LEDGER_CONSUME: "false", LEDGER_MIGRATE_ON_START: "false" }) : undefined;
const replica = readerEnv ? spawnNode("apps/ledger/dist/main.js", readerEnv) : undefined;
if (readerEnv) await waitReady(Number(readerEnv.LEDGER_OPS_PORT));
const ledger = spawnNode("apps/ledger/dist/main.js", env);
await waitReady(Number(env.LEDGER_OPS_PORT));
const t0 = performance.now();
const client = createClient(ledgerService(), `127.0.0.1:${(readerEnv ?? env).LEDGER_GRPC_PORT}`, { timeoutMs: 600_000, metadata: { authorization: `Bearer ${TOKEN}` } });
const seen = new Set<string>();
const waits: number[] = [];
let lastSeq = 0;
let outOfOrder = 0;
let tRead = 0;
const reader = (async () => {
  for await (const page of client.UsageFeed({ after_seq: 0, max_entries: 0, follow: true })) {
    const at = Date.now();
    for (const e of page.entries) {
      if (e.seq <= lastSeq) outOfOrder++;
      lastSeq = e.seq;
      if (e.kind !== "usage" || !e.usage!.request_id.startsWith("req_feed_")) continue;
      seen.add(e.usage!.request_id);
      waits.push(at - e.recorded_at_ms);
    }
    if (seen.size >= N) {
      tRead = performance.now();
      return;
    }
  }
})();
let tDone = 0;
for (;;) {
  if ((await pending(jsm)).pending === 0) {
    tDone = performance.now();
    break;
  }
  await sleep(20);
}
await Promise.race([reader, sleep(60_000)]);
const ledgerCpu = cpuMicros(ledger.pid!);
const replicaCpu = replica ? cpuMicros(replica.pid!) : 0;
const pgCpu = treeDelta(pg0, treeCpu(pgServer.pid));
client.close();
waits.sort((a, b) => a - b);
const drainS = (tDone - t0) / 1000;
console.log(`ledger feed: ${N} events, batch ${BATCH}, one ledger, a reader following the feed${replica ? " on an RPC-only replica" : ""}, durable Postgres`);
console.log(
  `  applied in ${drainS.toFixed(2)} s from the ledger's readiness: ${(N / drainS).toFixed(0)} events/s; CPU per event: ledger ${(ledgerCpu / N).toFixed(1)} µs${replica ? `, the reader's replica ${(replicaCpu / N).toFixed(1)} µs` : ""}, Postgres ${(pgCpu / N).toFixed(1)} µs`,
);
console.log(
  `  the reader had every record ${tRead ? ((tRead - tDone) / 1000).toFixed(2) : "—"} s after the last commit; commit → reader p50 ${pct(waits, 0.5)} ms, p99 ${pct(waits, 0.99)} ms, max ${waits.at(-1)} ms`,
);
console.log(`  records read ${seen.size}/${N}, out of order ${outOfOrder}`);
console.log(
  JSON.stringify({
    bench: "ledger-feed",
    date: new Date().toISOString().slice(0, 10),
    events: N,
    batch: BATCH,
    reader_on_replica: replica !== undefined,
    events_per_s: Math.round(N / drainS),
    cpu_us_per_event: { ledger: Math.round((ledgerCpu / N) * 10) / 10, replica: Math.round((replicaCpu / N) * 10) / 10, postgres: Math.round((pgCpu / N) * 10) / 10 },
    reader_behind_s: tRead ? Math.round(tRead - tDone) / 1000 : null,
    commit_to_reader_ms: { p50: pct(waits, 0.5), p99: pct(waits, 0.99), max: waits.at(-1) },
    records_read: seen.size,
    out_of_order: outOfOrder,
  }),
);
await stopChild(ledger);
if (replica) await stopChild(replica);
await nc.close();
await nats.stop();
await pgServer.stop();
rmSync(spool, { recursive: true, force: true });
process.exit(seen.size === N && outOfOrder === 0 ? 0 : 1);
