/**
 * Hot-path benchmark. Every component runs as its own process (fake upstream, control-plane,
 * ledger, data-plane, the bare proxy, nats-server, Postgres), so /proc/<pid>/stat gives the CPU of
 * each. Measures, for the data-plane and for a bare express + undici proxy on the same upstream:
 *   - CPU per non-streaming request at concurrency (and what the control-plane, ledger, NATS and
 *     Postgres spend per request of the gateway, once the ledger has applied the usage);
 *   - latency one request at a time (non-streaming), and a stream's first byte, against the
 *     upstream directly, through the bare proxy and through the gateway; for the gateway also each
 *     request's own wait for its durable usage event (its Server-Timing `usage`), and the latency
 *     it added beyond that wait; and, timed alone, the two ways an event may become durable (the
 *     JetStream acknowledgement, an fdatasync'd spool append);
 *   - resident memory after the run.
 * Ends with one JSON line (`{"bench":"hot-path",…}`) to compare runs with (docs/operations.md).
 * Bounded: fixed request counts on loopback; stops by itself and ends only what it started.
 *
 *   make build && node bench/hot-path.ts [requests=8000] [concurrency=16] [sequential=1000] [rounds=4]
 *
 * `BENCH_MODEL` (default gw-chat-mini) is the gateway's model and `BENCH_MAX_TOKENS` (default 64;
 * `none`: no limit, the model's own, as agents send) each request's limit: `BENCH_MODEL=gw-gpt
 * BENCH_MAX_TOKENS=none` measures a non-streamed request held in tranches (streamed from the
 * provider, its answer read whole: docs/billing.md, "Holds in tranches").
 *
 * `BENCH_REFUSED=n` adds, after the rest, n requests refused before routing (an unknown model, 404)
 * at the same concurrency: the data-plane's CPU per refusal, and NATS', the ledger's and Postgres'
 * once the ledger stored the refusal records (docs/billing.md, "Refusal records"). At the default
 * per-key rate (DATA_PLANE_REFUSAL_RECORDS_PER_S=10, burst 20) nearly all are rate-limited: the
 * cost of a client hammering with bad requests. With DATA_PLANE_REFUSAL_RECORDS_PER_S and _BURST
 * set high in the environment every refusal is recorded: the cost of a record.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { seedDemo } from "../scripts/lib/seed.ts";
import { DEPLOY_NODE_FLAGS } from "./deploy-flags.ts";
import { cpuMicros, gitCommit, memory, pct, root, serviceEnv, stopChild, treeCpu, treeDelta } from "../scripts/lib/bench.ts";

const N = Number(process.argv[2] ?? 8000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const SEQUENTIAL = Number(process.argv[4] ?? 1000);
const ROUNDS = Number(process.argv[5] ?? 4);
/** The gateway's model, and each request's max_tokens (undefined: none). */
const MODEL = process.env.BENCH_MODEL ?? "gw-chat-mini";
const MAX_TOKENS = process.env.BENCH_MAX_TOKENS === "none" ? undefined : Number(process.env.BENCH_MAX_TOKENS ?? 64);
/** As many streams as sequential requests: a p99 over a few hundred is its third-worst sample. */
const STREAMS = SEQUENTIAL;
const round = (x: number, digits = 2) => Math.round(x * 10 ** digits) / 10 ** digits;
/** Requests refused before routing to measure after the rest (0: none). */
const REFUSED = Number(process.env.BENCH_REFUSED ?? 0);

const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000 });

interface Target {
  name: string;
  url: string;
  key: string;
  model: string;
}

/** Per call, the gateway's Server-Timing `usage` (the wait for the durable usage event), ms, when `timings` is set. */
let timings: number[] | undefined;
const usageDur = (h: string | string[] | undefined) => Number(/usage;dur=([\d.]+)/.exec(String(h ?? ""))?.[1] ?? 0);

async function call(t: Target, stream: boolean, firstByte = false): Promise<number> {
  const body = JSON.stringify({ model: t.model, stream, messages: [{ role: "user", content: "Say hello to the benchmark please" }], ...(MAX_TOKENS !== undefined ? { max_tokens: MAX_TOKENS } : {}) });
  const start = performance.now();
  const r = await request(`${t.url}/v1/chat/completions`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" }, body });
  if (r.statusCode !== 200) throw new Error(`${t.name}: status ${r.statusCode}: ${await r.body.text()}`);
  timings?.push(usageDur(r.headers["server-timing"]));
  if (firstByte) {
    let at = 0;
    for await (const _chunk of r.body) {
      at ||= performance.now() - start;
    }
    return at;
  }
  await r.body.text();
  return performance.now() - start;
}

/** A request for a model no catalog has: refused before routing (404), its refusal record published within the key's rate. */
async function refusedCall(t: Target): Promise<number> {
  const body = JSON.stringify({ model: "gw-no-such-model", messages: [{ role: "user", content: "Say hello to the benchmark please" }] });
  const start = performance.now();
  const r = await request(`${t.url}/v1/chat/completions`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${t.key}`, "content-type": "application/json" }, body });
  if (r.statusCode !== 404) throw new Error(`${t.name}: status ${r.statusCode} for an unknown model: ${await r.body.text()}`);
  await r.body.text();
  return performance.now() - start;
}

async function load(t: Target, n: number, concurrency: number, one: (t: Target) => Promise<number> = (x) => call(x, false)): Promise<number[]> {
  const lat: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      lat.push(await one(t));
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return lat;
}

async function sequential(t: Target, n: number, stream: boolean): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < n; i++) out.push(await call(t, stream, stream));
  return out;
}

function spawnNode(script: string, env: Record<string, string>): ChildProcess {
  const prof = process.env.BENCH_CPU_PROF && (script === "apps/data-plane/dist/main.js" || script.endsWith("bare-proxy.ts")) ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const flags = script === "apps/data-plane/dist/main.js" ? DEPLOY_NODE_FLAGS : [];
  return spawn(process.execPath, [...flags, ...prof, script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

async function metricsText(url: string): Promise<string> {
  return (await request(`${url}/metrics`)).body.text();
}
const metric = (text: string, line: string) =>
  Number(
    text
      .split("\n")
      .find((l) => l.startsWith(line))
      ?.split(" ")
      .pop() ?? NaN,
  );

const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);
step("starting infrastructure");
const pg = await startPostgres();
const nats = await startNats();
const db = await createDatabase(pg.url, "bench");
const token = "bench-admin-token-0123456789";
/** The data-plane's caller token at the control-plane and the ledger. */
const dpToken = "bench-data-plane-token-0123456789";
const [fakePort, controlPort, ledgerPort, ledgerOpsPort, dpPort, barePort] = (await Promise.all(Array.from({ length: 6 }, () => freePort()))) as [number, number, number, number, number, number];
const fakeUrl = `http://127.0.0.1:${fakePort}`;
const silent = process.env.BENCH_LOG_LEVEL ?? "warn";
const children: ChildProcess[] = [];
// However this process ends (an error, a closed stdout), nothing it started outlives it.
process.once("exit", () => {
  for (const c of children) c.kill("SIGKILL");
  for (const pid of [nats.pid, pg.pid]) {
    try {
      process.kill(pid, "SIGTERM");
    } catch {
      // already gone
    }
  }
});
const services = serviceEnv({ db, natsUrl: nats.url, controlPort, ledgerPort, ledgerOpsPort, adminToken: token, dpToken, logLevel: silent });
children.push(spawnNode("packages/fake-upstream/dist/main.js", { FAKE_UPSTREAM_PORT: String(fakePort), FAKE_UPSTREAM_API_KEY }));
const control = spawnNode("apps/control-plane/dist/main.js", services.control);
const ledger = spawnNode("apps/ledger/dist/main.js", services.ledger);
children.push(control, ledger);
await Promise.all([waitForPort(fakePort, 30_000), waitForPort(controlPort, 30_000), waitForPort(ledgerPort, 30_000)]);
const seeded = await seedDemo({
  controlPlaneAddr: `127.0.0.1:${controlPort}`,
  ledgerAddr: `127.0.0.1:${ledgerPort}`,
  adminToken: token,
  fakeUpstreamUrl: fakeUrl,
  orgName: "bench",
  topUpMinor: 1_000_000_000,
});

step("seeded; starting data-plane and bare proxy");
const spool = mkdtempSync(join(tmpdir(), "bench-spool-"));
const dp = spawnNode("apps/data-plane/dist/main.js", {
  ...services.dataPlane,
  DATA_PLANE_PORT: String(dpPort),
  DATA_PLANE_LOG_LEVEL: silent,
  DATA_PLANE_SPOOL_DIR: spool,
  DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
});
const bare = spawnNode("bench/bare-proxy.ts", { BARE_PORT: String(barePort), BARE_UPSTREAM: fakeUrl, FAKE_UPSTREAM_API_KEY });
children.push(dp, bare);
await waitForPort(dpPort, 30_000);
await waitForPort(barePort, 30_000);
const gateway: Target = { name: "gateway", url: `http://127.0.0.1:${dpPort}`, key: seeded.secret, model: MODEL };
const viaBare: Target = { name: "bare proxy", url: `http://127.0.0.1:${barePort}`, key: seeded.secret, model: "fake-chat" };
const direct: Target = { name: "upstream", url: fakeUrl, key: FAKE_UPSTREAM_API_KEY, model: "fake-chat" };
// Wait until the seeded org is out of trial and its models are visible.
for (let i = 0; i < 100; i++) {
  const r = await request(`${gateway.url}/v1/models`, { headers: { authorization: `Bearer ${seeded.secret}` } });
  const j = (await r.body.json()) as { data?: unknown[] };
  if (j.data?.length) break;
  await new Promise((r) => setTimeout(r, 100));
}
const ledgerApplied = async () => metric(await metricsText(`http://127.0.0.1:${ledgerOpsPort}`), 'ledger_usage_events_total{result="applied"');
const gatewayAcked = async () => {
  const m = await metricsText(gateway.url);
  return (metric(m, 'gateway_usage_events_total{result="acked"') || 0) + (metric(m, 'gateway_usage_events_total{result="spooled"') || 0);
};

/** Waits until the ledger applied every event the gateway published (bounded). */
async function ledgerCaughtUp(): Promise<void> {
  const want = await gatewayAcked();
  for (let i = 0; i < 300 && ((await ledgerApplied()) || 0) < want; i++) await new Promise((r) => setTimeout(r, 100));
}

step("measuring CPU at concurrency");
console.log(
  `non-streaming: ${N} requests per target (the gateway on ${MODEL}, max_tokens ${MAX_TOKENS ?? "none"}) in ${ROUNDS} alternating rounds, concurrency ${CONCURRENCY}, loopback, fake upstream (every component its own process; data-plane node flags as deployed: ${DEPLOY_NODE_FLAGS.join(" ") || "none"})`,
);
const others = { "control-plane": control.pid!, ledger: ledger.pid!, nats: nats.pid, postgres: pg.pid };
const pids = { gateway: dp.pid!, "bare proxy": bare.pid! };
// Warm-up (JIT, connection pools, leases, caches): a few thousand requests each, or the per-request
// figure still carries the optimizing compiler's work.
for (const t of [viaBare, gateway]) await load(t, Math.max(3000, N / 4), CONCURRENCY);
await ledgerCaughtUp();
// Alternating rounds: a neighbour's burst of CPU lands on both targets, not on one.
const spent: Record<string, number> = { gateway: 0, "bare proxy": 0, "control-plane": 0, ledger: 0, nats: 0, postgres: 0 };
const elapsed: Record<string, number> = { gateway: 0, "bare proxy": 0 };
const lat: Record<string, number[]> = { gateway: [], "bare proxy": [] };
const ratios: number[] = [];
const perRound = Math.ceil(N / ROUNDS);
for (let round = 0; round < ROUNDS; round++) {
  const cpuOf: Record<string, number> = {};
  for (const t of [viaBare, gateway]) {
    const pid = pids[t.name as keyof typeof pids];
    const before = cpuMicros(pid);
    const beforeOthers = Object.fromEntries(Object.entries(others).map(([k, p]) => [k, treeCpu(p)]));
    const t0 = performance.now();
    lat[t.name]!.push(...(await load(t, perRound, CONCURRENCY)));
    elapsed[t.name]! += performance.now() - t0;
    cpuOf[t.name] = cpuMicros(pid) - before;
    spent[t.name]! += cpuOf[t.name]!;
    if (t === gateway) {
      await ledgerCaughtUp();
      for (const [k, p] of Object.entries(others)) spent[k]! += treeDelta(beforeOthers[k]!, treeCpu(p));
    }
  }
  ratios.push(cpuOf.gateway! / cpuOf["bare proxy"]!);
}
const total = perRound * ROUNDS;
const cpu = Object.fromEntries(Object.entries(spent).map(([k, v]) => [k, v / total]));
const rps = Object.fromEntries(Object.entries(elapsed).map(([k, v]) => [k, total / (v / 1000)]));
for (const name of ["bare proxy", "gateway"]) {
  console.log(
    `${name.padEnd(12)} cpu/request ${cpu[name]!.toFixed(0).padStart(4)} µs   rps ${rps[name]!.toFixed(0).padStart(5)}   p50 ${pct(lat[name]!, 50).toFixed(2)} ms   p99 ${pct(lat[name]!, 99).toFixed(2)} ms`,
  );
}
console.log(
  `  per gateway request elsewhere: ${Object.keys(others)
    .map((k) => `${k} ${cpu[k]!.toFixed(0)} µs`)
    .join(", ")}`,
);
const ratio = cpu.gateway! / cpu["bare proxy"]!;
console.log(`  gateway / bare proxy CPU per request: ${ratio.toFixed(2)}× overall; by round ${ratios.map((r) => r.toFixed(2)).join(", ")} (median ${pct(ratios, 50).toFixed(2)})`);

step("measuring latency one request at a time");
const seq: Record<string, number[]> = {};
const first: Record<string, number[]> = {};
/** The gateway's one-at-a-time latencies less each one's own wait for the durable usage event. */
let ownLatency: number[] = [];
let usageWait: number[] = [];
for (const t of [direct, viaBare, gateway]) {
  await sequential(t, 100, false); // warm-up
  if (t === gateway) timings = [];
  seq[t.name] = await sequential(t, SEQUENTIAL, false);
  if (t === gateway) {
    usageWait = timings!;
    ownLatency = seq.gateway!.map((x, i) => x - usageWait[i]!);
    timings = undefined;
  }
}
for (const t of [direct, viaBare, gateway]) {
  await sequential(t, 50, true);
  first[t.name] = await sequential(t, STREAMS, true);
}
// The floor under "added": the acknowledgement every answer waits for (the usage event stored by
// JetStream), timed alone with the data-plane's own publish on a scratch stream of the same server.
const { JetStreamPublish } = (await import("../apps/data-plane/dist/usage/jetstream-publish.js")) as unknown as typeof import("../apps/data-plane/src/usage/jetstream-publish.js");
const floorNc = await connect({ servers: nats.url });
await (await jetstreamManager(floorNc)).streams.add({ name: "BENCH_FLOOR", subjects: ["benchfloor.>"] });
const floorPublish = new JetStreamPublish(floorNc);
const event = JSON.stringify({ request_id: "req_0", padding: "x".repeat(600) });
const ackFloor: number[] = [];
for (let i = 0; i < SEQUENTIAL; i++) {
  const t = performance.now();
  await floorPublish.publish("benchfloor.usage", event, { msgID: `floor-${i}`, timeout: 5_000 });
  ackFloor.push(performance.now() - t);
}
await floorNc.close();
// The other way an event may be made durable (the spool): one append of the same size, fdatasync'd,
// in the data-plane's spool folder.
const { closeSync, fdatasyncSync, openSync, writeSync } = await import("node:fs");
const syncFloor: number[] = [];
const syncFile = join(spool, "bench-fdatasync.jsonl");
const fd = openSync(syncFile, "a");
for (let i = 0; i < SEQUENTIAL; i++) {
  const t = performance.now();
  writeSync(fd, `${event}\n`);
  fdatasyncSync(fd);
  syncFloor.push(performance.now() - t);
}
closeSync(fd);
rmSync(syncFile, { force: true });
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms p99 ${pct(xs, 99).toFixed(2)} ms`;
const added = (xs: Record<string, number[]>, p: number) => pct(xs.gateway!, p) - pct(xs["bare proxy"]!, p);
const beyond = (p: number) => pct(ownLatency, p) - pct(seq["bare proxy"]!, p);
console.log(`one at a time (${SEQUENTIAL}): direct ${fmt(seq.upstream!)} | via bare proxy ${fmt(seq["bare proxy"]!)} | via gateway ${fmt(seq.gateway!)}`);
console.log(
  `  added by the gateway over the bare proxy: p50 ${added(seq, 50).toFixed(2)} ms p99 ${added(seq, 99).toFixed(2)} ms; of which the JetStream acknowledgement every answer waits for: ${fmt(ackFloor)} (timed alone)`,
);
console.log(
  `  the wait for the durable usage event inside each gateway request (Server-Timing usage): ${fmt(usageWait)}; added beyond it: p50 ${beyond(50).toFixed(2)} ms p99 ${beyond(99).toFixed(2)} ms`,
);
console.log(`  the spool's way instead, one append + fdatasync of the same event: ${fmt(syncFloor)} (timed alone)`);
console.log(`stream first byte (${STREAMS} sequential): direct ${fmt(first.upstream!)} | via bare proxy ${fmt(first["bare proxy"]!)} | via gateway ${fmt(first.gateway!)}`);
console.log(`  added by the gateway over the bare proxy: p50 ${added(first, 50).toFixed(2)} ms p99 ${added(first, 99).toFixed(2)} ms`);

const mib = (m: { rss: number; peak: number }) => ({ rss: Math.round(m.rss), peak: Math.round(m.peak) });
const memGateway = mib(memory(dp.pid!));
const memBare = mib(memory(bare.pid!));
console.log(`memory after the run: gateway RSS ${memGateway.rss} MiB (peak ${memGateway.peak}) | bare proxy RSS ${memBare.rss} MiB (peak ${memBare.peak})`);
const m = await metricsText(gateway.url);
console.log(
  m
    .split("\n")
    .filter((l) => l.startsWith("gateway_usage_events_total") || l.startsWith("gateway_usage_publish_batch_events_sum") || l.startsWith("gateway_usage_publish_batch_events_count"))
    .join("\n"),
);

/** CPU per refused request (data-plane, and elsewhere once the ledger stored the records), µs; undefined without BENCH_REFUSED. */
let refusedCpu: Record<string, number> | undefined;
let refusedCounts: Record<string, number> | undefined;
if (REFUSED > 0) {
  step(`measuring ${REFUSED} refused requests`);
  const count = async (url: string, line: string) => metric(await metricsText(url), line) || 0;
  const ledgerOps = `http://127.0.0.1:${ledgerOpsPort}`;
  const stored = async () => (await count(ledgerOps, 'ledger_refusal_records_total{result="applied"')) + (await count(ledgerOps, 'ledger_refusal_records_total{result="duplicate"'));
  const published = () => count(gateway.url, 'gateway_refusal_records_total{result="published"');
  const limitedBefore = await count(gateway.url, 'gateway_refusal_records_total{result="rate_limited"');
  const publishedBefore = await published();
  await load(gateway, 500, CONCURRENCY, refusedCall); // warm-up
  for (let i = 0; i < 100 && (await stored()) < (await published()); i++) await new Promise((r) => setTimeout(r, 100));
  const before = cpuMicros(dp.pid!);
  const beforeOthers = Object.fromEntries(Object.entries(others).map(([k, p]) => [k, treeCpu(p)]));
  const t0 = performance.now();
  const refusedLat = await load(gateway, REFUSED, CONCURRENCY, refusedCall);
  const secs = (performance.now() - t0) / 1000;
  const dpCpu = cpuMicros(dp.pid!) - before;
  // Until the ledger stored every record the data-plane published (bounded).
  for (let i = 0; i < 300 && (await stored()) < (await published()); i++) await new Promise((r) => setTimeout(r, 100));
  refusedCpu = { gateway: Math.round(dpCpu / REFUSED), ...Object.fromEntries(Object.entries(others).map(([k, p]) => [k, Math.round(treeDelta(beforeOthers[k]!, treeCpu(p)) / REFUSED)])) };
  refusedCounts = {
    published: (await published()) - publishedBefore,
    rate_limited: (await count(gateway.url, 'gateway_refusal_records_total{result="rate_limited"')) - limitedBefore,
    rps: Math.round(REFUSED / secs),
  };
  console.log(
    `refused before routing (unknown model, 404): ${REFUSED} at concurrency ${CONCURRENCY}: gateway cpu/request ${refusedCpu.gateway} µs, rps ${refusedCounts.rps}, p50 ${pct(refusedLat, 50).toFixed(2)} ms p99 ${pct(refusedLat, 99).toFixed(2)} ms; records published ${refusedCounts.published} (with the warm-up), rate-limited ${refusedCounts.rate_limited}`,
  );
  console.log(
    `  per refused request elsewhere: ${Object.keys(others)
      .map((k) => `${k} ${refusedCpu![k]} µs`)
      .join(", ")}`,
  );
}

console.log(
  JSON.stringify({
    bench: "hot-path",
    date: new Date().toISOString().slice(0, 10),
    commit: gitCommit(),
    cores: (await import("node:os")).availableParallelism(),
    node_flags: DEPLOY_NODE_FLAGS.join(" "),
    requests: N,
    concurrency: CONCURRENCY,
    model: MODEL,
    max_tokens: MAX_TOKENS ?? null,
    cpu_us_per_request: Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, Math.round(v)])),
    cpu_ratio_vs_bare: round(ratio),
    cpu_ratio_by_round: ratios.map((r) => round(r)),
    rps: { gateway: Math.round(rps.gateway!), bare: Math.round(rps["bare proxy"]!) },
    one_at_a_time_ms: {
      direct_p50: round(pct(seq.upstream!, 50)),
      bare_p50: round(pct(seq["bare proxy"]!, 50)),
      gateway_p50: round(pct(seq.gateway!, 50)),
      added_p50: round(added(seq, 50)),
      added_p99: round(added(seq, 99)),
      jetstream_ack_p50: round(pct(ackFloor, 50), 3),
      jetstream_ack_p99: round(pct(ackFloor, 99), 3),
      fdatasync_p50: round(pct(syncFloor, 50), 3),
      fdatasync_p99: round(pct(syncFloor, 99), 3),
      usage_wait_p50: round(pct(usageWait, 50), 3),
      usage_wait_p99: round(pct(usageWait, 99), 3),
      added_beyond_usage_wait_p50: round(beyond(50)),
      added_beyond_usage_wait_p99: round(beyond(99)),
    },
    stream_first_byte_ms: {
      direct_p50: round(pct(first.upstream!, 50)),
      bare_p50: round(pct(first["bare proxy"]!, 50)),
      gateway_p50: round(pct(first.gateway!, 50)),
      added_p50: round(added(first, 50)),
      added_p99: round(added(first, 99)),
    },
    rss_mib: { gateway: memGateway.rss, gateway_peak: memGateway.peak, bare: memBare.rss },
    ...(refusedCpu ? { refused: { requests: REFUSED, cpu_us_per_request: refusedCpu, ...refusedCounts } } : {}),
  }),
);

for (const c of [...children].reverse()) await stopChild(c);
await nats.stop();
await pg.stop();
await agent.close();
rmSync(spool, { recursive: true, force: true });
process.exit(0);
