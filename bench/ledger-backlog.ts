/**
 * Backlog benchmark: how fast the ledger applies a backlog of usage events on durable Postgres
 * (fsync and synchronous_commit on, as production runs). Publishes N events while no ledger runs,
 * then starts one ledger process (or several: replicas on the same durable) and times the drain
 * from the first acknowledgement to an empty durable. Reports events/s and the CPU per event of the
 * ledger process(es) and of Postgres (postmaster + backends). Bounded: N events, then it stops.
 *
 *   make build && node bench/ledger-backlog.ts [events=100000] [batch=500] [ledgers=1]
 *   BENCH_DDL="DROP INDEX usage_by_org_key_created" node bench/ledger-backlog.ts   (weigh one part of the apply)
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect } from "@nats-io/transport-node";
import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import pg from "pg";
import { USAGE_SUBJECT, encodeEvent } from "@gateway/events";
import { createDatabase, startNats, startPostgres } from "@gateway/testing";
import { chatUsageEvent, cpuMicros, fundOrgs, ledgerEnv, pending, sleep, spawnNode, step, stopChild, treeCpu, treeDelta, waitReady } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 100_000);
const BATCH = Number(process.argv[3] ?? 500);
const LEDGERS = Number(process.argv[4] ?? 1);
const ORGS = 200;
const TOKEN = "bench-ledger-admin-token-0123";

step("starting durable Postgres and NATS");
const spool = mkdtempSync(join(tmpdir(), "bench-ledger-"));
const pgServer = await startPostgres({ durable: true });
const nats = await startNats();
const dbUrl = await createDatabase(pgServer.url, "ledger_bench");

const envFor = () => ledgerEnv(dbUrl, nats.url, TOKEN, { LEDGER_BATCH_MAX: String(BATCH) });

// First run: migrations, stream and durable, the organizations' credit and one lease each.
const setupEnv = await envFor();
const ledger = spawnNode("apps/ledger/dist/main.js", setupEnv);
await waitReady(Number(setupEnv.LEDGER_OPS_PORT));
const leases = await fundOrgs(setupEnv, "bench", ORGS);
await stopChild(ledger);
// BENCH_DDL: statements run on the ledger's schema before the backlog (to weigh what an index or a
// trigger costs the apply, alternating with runs without it), e.g. "DROP TRIGGER usage_records_roll_up ON usage_records".
if (process.env.BENCH_DDL) {
  const ddl = new pg.Client({ connectionString: dbUrl });
  await ddl.connect();
  await ddl.query(`SET search_path = ledger; ${process.env.BENCH_DDL}`);
  await ddl.end();
  step(`ran BENCH_DDL: ${process.env.BENCH_DDL}`);
}

step(`publishing ${N} usage events (no ledger running)`);
const nc = await connect({ servers: nats.url });
const js = jetstream(nc);
const jsm = await jetstreamManager(nc);
const now = Date.now();
let expectedSpend = 0;
for (let i = 0; i < N; i += 2_000) {
  const acks: Promise<unknown>[] = [];
  for (let j = i; j < Math.min(N, i + 2_000); j++) {
    // A third of the traffic is one hot organization; the rest spread over the others.
    const org = j % 3 === 0 ? 0 : 1 + (j % (ORGS - 1));
    const ev = chatUsageEvent({ requestId: `req_bench_${now}_${j}`, prefix: "bench", org, leaseId: leases[org]!, j, createdAtMs: now + j });
    expectedSpend += ev.cost_minor;
    acks.push(js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id }));
  }
  await Promise.all(acks);
}
const start = await pending(jsm);
step(`backlog: ${start.pending} events; starting ${LEDGERS} ledger process(es) with batches of ${BATCH}`);

const pg0 = treeCpu(pgServer.pid);
const children = [];
for (let i = 0; i < LEDGERS; i++) children.push(spawnNode("apps/ledger/dist/main.js", await envFor()));
const t0 = performance.now();
let tFirst = 0;
for (;;) {
  const p = await pending(jsm);
  if (!tFirst && p.ackFloor > start.ackFloor) tFirst = performance.now();
  if (p.pending === 0) break;
  await sleep(20);
}
const tDone = performance.now();
const ledgerCpu = children.reduce((s, c) => s + cpuMicros(c.pid!), 0);
const pgCpu = treeDelta(pg0, treeCpu(pgServer.pid));

const c = new pg.Client({ connectionString: dbUrl });
await c.connect();
const check = await c.query<{ n: number; spent: string; bad: number }>(`
  SELECT (SELECT count(*)::int FROM ledger.usage_records WHERE request_id LIKE 'req_bench_%') AS n,
         (SELECT sum(spent_minor) FROM ledger.accounts WHERE org_id LIKE 'org_bench_%') AS spent,
         (SELECT count(*)::int FROM ledger.accounts WHERE balance_minor <> topped_up_minor - spent_minor) AS bad`);
await c.end();
const drainS = (tDone - tFirst) / 1000;
console.log(`ledger backlog: ${N} events, batch ${BATCH}, ${LEDGERS} ledger(s), durable Postgres (fsync on, synchronous_commit on)`);
console.log(`  drained in ${drainS.toFixed(2)} s from the first ack (${((tDone - t0) / 1000).toFixed(2)} s from process start): ${(N / drainS).toFixed(0)} events/s`);
console.log(`  CPU per event: ledger ${(ledgerCpu / N).toFixed(1)} µs (process total incl. start), Postgres ${(pgCpu / N).toFixed(1)} µs`);
console.log(`  records ${check.rows[0]!.n}/${N}, spent ${check.rows[0]!.spent}/${expectedSpend}, accounts out of balance: ${check.rows[0]!.bad}`);
console.log(
  JSON.stringify({
    bench: "ledger-backlog",
    date: new Date().toISOString().slice(0, 10),
    events: N,
    batch: BATCH,
    ledgers: LEDGERS,
    events_per_s: Math.round(N / drainS),
    cpu_us_per_event: { ledger: Math.round((ledgerCpu / N) * 10) / 10, postgres: Math.round((pgCpu / N) * 10) / 10 },
    records: check.rows[0]!.n,
    accounts_out_of_balance: check.rows[0]!.bad,
  }),
);

for (const ch of children) await stopChild(ch);
await nc.close();
await nats.stop();
await pgServer.stop();
rmSync(spool, { recursive: true, force: true });
process.exit(Number(check.rows[0]!.n) === N && Number(check.rows[0]!.spent) === expectedSpend ? 0 : 1);
