/**
 * Consumer-lag benchmark: two data-plane replicas at saturation on durable Postgres, with the
 * ledger consuming as they serve. Samples the durable's unacknowledged events every 250 ms and,
 * twice a second, how long after its answer a request's usage record is readable (the lag a user
 * of GET /v1/usage/{id} sees). Bounded: a fixed duration, then it stops by itself.
 *
 * With an outage (the issue's reproduction), the ledger is stopped 2 s into the load for that many
 * seconds while both replicas keep serving from their credit leases; then it starts again and the
 * time to drain the backlog, with the load still running, is reported.
 *
 *   make build && node bench/ledger-lag.ts [seconds=20] [concurrency=32] [outageSeconds=0]
 */
import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import pg from "pg";
import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { createControlPlane, loadConfig as controlConfig } from "@gateway/control-plane";
import { startFakeUpstream } from "@gateway/fake-upstream";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { serviceEnv } from "../scripts/lib/bench.ts";
import { seedDemo } from "../scripts/lib/seed.ts";
import { cpuMicros, pct, pending, sleep, spawnNode, step, stopChild, treeCpu, treeDelta, waitReady } from "./ledger-common.ts";

const SECONDS = Number(process.argv[2] ?? 20);
const CONCURRENCY = Number(process.argv[3] ?? 32);
const OUTAGE = Number(process.argv[4] ?? 0);
const TOKEN = "bench-lag-admin-token-0123456";
/** The data-plane's caller token at the control-plane and the ledger. */
const dpToken = "bench-data-plane-token-0123456789";

step("starting durable Postgres, NATS, fake upstream, control-plane, ledger");
const spool = mkdtempSync(join(tmpdir(), "bench-lag-"));
const pgServer = await startPostgres({ durable: true });
const nats = await startNats();
const fake = await startFakeUpstream({ apiKey: FAKE_UPSTREAM_API_KEY });
const dbUrl = await createDatabase(pgServer.url, "lag_bench");
const [controlPort, ledgerPort, ledgerOps] = [await freePort(), await freePort(), await freePort()];
const services = serviceEnv({ db: dbUrl, natsUrl: nats.url, controlPort, ledgerPort, ledgerOpsPort: ledgerOps, adminToken: TOKEN, dpToken, logLevel: "warn" });
const control = createControlPlane(controlConfig({ ...services.control, CONTROL_PLANE_LOG_LEVEL: "silent" }));
await control.start();
const ledgerEnv = services.ledger;
let ledger = spawnNode("apps/ledger/dist/main.js", ledgerEnv);
await waitReady(ledgerOps);
const seeded = await seedDemo({
  controlPlaneAddr: `127.0.0.1:${control.grpcPort}`,
  ledgerAddr: `127.0.0.1:${ledgerPort}`,
  adminToken: TOKEN,
  fakeUpstreamUrl: fake.url,
  orgName: "lag-bench",
  topUpMinor: 1_000_000_000_000,
});

step("starting two data-plane replicas");
const replicas: { child: ChildProcess; url: string }[] = [];
for (let i = 0; i < 2; i++) {
  const port = await freePort();
  const child = spawnNode("apps/data-plane/dist/main.js", {
    ...services.dataPlane,
    DATA_PLANE_PORT: String(port),
    DATA_PLANE_LOG_LEVEL: "warn",
    DATA_PLANE_REPLICA_ID: `bench-${i}`,
    DATA_PLANE_SPOOL_DIR: join(spool, String(i)),
    DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
  });
  await waitForPort(port, 20_000);
  replicas.push({ child, url: `http://127.0.0.1:${port}` });
}
const agent = new Agent({ connections: CONCURRENCY, keepAliveTimeout: 30_000 });
const body = JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "Say hello to the benchmark please" }], max_tokens: 64 });
const chat = async (url: string) => {
  const r = await request(`${url}/v1/chat/completions`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" }, body });
  await r.body.text();
  return { status: r.statusCode, id: String(r.headers["x-request-id"] ?? "") };
};
for (const r of replicas) {
  for (let i = 0; i < 100; i++)
    if ((await chat(r.url)).status === 200) break;
    else await sleep(100);
}

const nc = await connect({ servers: nats.url });
const jsm = await jetstreamManager(nc);
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();

step(`load: ${SECONDS} s at concurrency ${CONCURRENCY} over two replicas`);
let done = 0;
let failed = 0;
let latest = { id: "", at: 0 };
const stopAt = performance.now() + SECONDS * 1000;
const worker = async (w: number) => {
  const url = replicas[w % 2]!.url;
  while (performance.now() < stopAt) {
    const r = await chat(url);
    if (r.status === 200) {
      done++;
      latest = { id: r.id, at: performance.now() };
    } else failed++;
  }
};
const pendingSamples: number[] = [];
const readDelays: number[] = [];
const sampler = (async () => {
  while (performance.now() < stopAt) {
    pendingSamples.push((await pending(jsm)).pending);
    if (process.env.BENCH_TRACE && pendingSamples.length % 4 === 0)
      step(`t=${((performance.now() - (stopAt - SECONDS * 1000)) / 1000).toFixed(0)} s pending ${pendingSamples.at(-1)} answered ${done}`);
    await sleep(250);
  }
})();
// Read-your-writes as a user does it: GET /v1/usage/{id} right after the answer, on the other replica.
const lookups = new Map<number, number>();
const prober = (async () => {
  while (performance.now() < stopAt) {
    await sleep(500);
    const { id, at } = latest;
    if (!id) continue;
    for (;;) {
      const r = await db.query("SELECT 1 FROM ledger.usage_records WHERE request_id = $1", [id]);
      if (r.rowCount) break;
      if (performance.now() - at > 30_000) break;
      await sleep(10);
    }
    readDelays.push(performance.now() - at);
  }
})();
const reader = (async () => {
  while (performance.now() < stopAt) {
    await sleep(200);
    const { id } = latest;
    if (!id) continue;
    const r = await request(`${replicas[1]!.url}/v1/usage/${id}`, { dispatcher: agent, headers: { authorization: `Bearer ${seeded.secret}` } });
    await r.body.text();
    lookups.set(r.statusCode, (lookups.get(r.statusCode) ?? 0) + 1);
  }
})();
const ledgerCpu0 = cpuMicros(ledger.pid!);
let ledgerCpuBefore = 0;
const outage = (async () => {
  if (OUTAGE <= 0) return undefined;
  await sleep(2_000);
  const backlogStart = (await pending(jsm)).pending;
  ledgerCpuBefore = cpuMicros(ledger.pid!) - ledgerCpu0;
  await stopChild(ledger);
  step(`ledger stopped for ${OUTAGE} s`);
  await sleep(OUTAGE * 1000);
  const backlog = (await pending(jsm)).pending;
  const restarted = performance.now();
  ledger = spawnNode("apps/ledger/dist/main.js", ledgerEnv);
  await waitReady(ledgerOps);
  const ready = performance.now();
  while ((await pending(jsm)).pending > 100 && performance.now() - restarted < 120_000) await sleep(20);
  return { backlogStart, backlog, readyMs: ready - restarted, drainMs: performance.now() - restarted };
})();
const pgCpu0 = treeCpu(pgServer.pid);
const t0 = performance.now();
await Promise.all([...Array.from({ length: CONCURRENCY }, (_, w) => worker(w)), sampler, prober, reader]);
const secs = (performance.now() - t0) / 1000;
const outageResult = await outage;
const ledgerCpu = OUTAGE > 0 ? ledgerCpuBefore + cpuMicros(ledger.pid!) : cpuMicros(ledger.pid!) - ledgerCpu0;
const pgCpu = treeDelta(pgCpu0, treeCpu(pgServer.pid));
const tail = performance.now();
while ((await pending(jsm)).pending > 0 && performance.now() - tail < 60_000) await sleep(20);
const drainMs = performance.now() - tail;

console.log(`two data-plane replicas at saturation for ${SECONDS} s (concurrency ${CONCURRENCY}), durable Postgres, one ledger`);
if (outageResult) {
  console.log(
    `  ledger stopped ${OUTAGE} s: backlog ${outageResult.backlog} events (${outageResult.backlogStart} before); restarted, ready in ${outageResult.readyMs.toFixed(0)} ms, caught up (≤ 100 pending) ${(outageResult.drainMs / 1000).toFixed(2)} s after the restart while the load continued`,
  );
}
console.log(`  requests ${done} ok (${(done / secs).toFixed(0)}/s), ${failed} failed`);
console.log(`  unacknowledged usage events (every 250 ms): p50 ${pct(pendingSamples, 50)} p99 ${pct(pendingSamples, 99)} max ${Math.max(...pendingSamples)}`);
console.log(
  `  answer → usage record readable: p50 ${pct(readDelays, 50).toFixed(0)} ms p99 ${pct(readDelays, 99).toFixed(0)} ms max ${Math.max(...readDelays).toFixed(0)} ms (${readDelays.length} probes)`,
);
console.log(`  GET /v1/usage/{id} right after the answer (every 200 ms): ${[...lookups].map(([s, n]) => `${n}× ${s}`).join(", ")}`);
const ledgerMetrics = await (await fetch(`http://127.0.0.1:${ledgerOps}/metrics`)).text();
const metricValue = (name: string) =>
  Number(
    ledgerMetrics
      .split("\n")
      .find((l) => l.startsWith(name))
      ?.split(" ")
      .pop() ?? NaN,
  );
const batches = metricValue("ledger_apply_batch_events_count");
console.log(
  `  ledger batches: ${batches}, mean ${(metricValue("ledger_apply_batch_events_sum") / batches).toFixed(1)} events, mean apply ${((metricValue("ledger_apply_duration_seconds_sum") / metricValue("ledger_apply_duration_seconds_count")) * 1000).toFixed(1)} ms`,
);
console.log(`  backlog left when the load stopped drained in ${drainMs.toFixed(0)} ms`);
console.log(`  CPU per request: ledger ${(ledgerCpu / done).toFixed(1)} µs, Postgres ${(pgCpu / done).toFixed(1)} µs`);
console.log(
  JSON.stringify({
    bench: "ledger-lag",
    date: new Date().toISOString().slice(0, 10),
    seconds: SECONDS,
    concurrency: CONCURRENCY,
    outage_s: OUTAGE,
    rps: Math.round(done / secs),
    failed,
    answer_to_record_ms: { p50: Math.round(pct(readDelays, 50)), p99: Math.round(pct(readDelays, 99)) },
    usage_lookups: Object.fromEntries(lookups),
    backlog_after_outage: outageResult?.backlog ?? null,
    caught_up_after_restart_s: outageResult ? Math.round(outageResult.drainMs / 10) / 100 : null,
    cpu_us_per_request: { ledger: Math.round(ledgerCpu / done), postgres: Math.round(pgCpu / done) },
  }),
);

await db.end();
await nc.close();
for (const r of replicas) await stopChild(r.child);
await stopChild(ledger);
await control.stop();
await fake.close();
await agent.close();
await nats.stop();
await pgServer.stop();
rmSync(spool, { recursive: true, force: true });
process.exit(0);
