/**
 * Long-stream concurrency benchmark: `streams` slow chat streams (each `words` words, one every
 * `chunk_delay_ms`, so ~words × chunk_delay_ms long) held open at once through one data-plane
 * replica. Reports the most streams open at once (client side, and connections at the fake
 * upstream), the time for all of them against one stream's ideal length, and the replica's memory:
 * before, at the peak (per open stream) and after they closed (heap after a pause and a full
 * collection: the data-plane it starts gets --expose-gc and a SIGUSR2 handler that runs gc()). Ends with a one-line JSON summary on stdout. Bounded: a
 * fixed number of streams on loopback, a deadline, and it kills only the processes it started.
 *
 *   make build && node bench/streams.ts [streams=2000] [words=40] [chunk_delay_ms=100] [max_connections=0] [rounds=3]
 *
 * Each round runs the streams through the gateway and through a bare express + undici proxy, in
 * turn (the order alternates by round), and reports each run: the time for all, each stream's time
 * to its first chunk and its streaming time, the proxy's CPU per stream; then the medians. Before
 * the rounds: one uncounted burst through a second bare proxy (the fake upstream's and the load
 * generator's first), then the replica's first burst and the measured bare proxy's first, each
 * reported on its own: what a fresh process pays (its code still being optimized by V8, its heap
 * and connection pool growing), the replica's against a bare proxy's.
 *
 * max_connections is the fake provider's catalog limit (0 = the default, 4096); 512 reproduces the
 * old fixed pool. `BENCH_DP_FLAGS` adds node flags to the data-plane's (a V8 setting to try against the
 * image's). `BENCH_CPU_PROF=<dir>` writes the data-plane's and the bare proxy's CPU profiles there (the whole run;
 * `node bench/profile-summary.ts <dir>` reads it). Needs a file descriptor limit of about 3 × streams (Node raises its soft limit to
 * the hard one; check `ulimit -Hn`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { adminService, createClient } from "@gateway/proto";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { demoCatalog, FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { DEPLOY_NODE_FLAGS } from "./deploy-flags.ts";
import { cpuMicros, memory, pct, root, serviceEnv } from "../scripts/lib/bench.ts";
import { seedDemo } from "../scripts/lib/seed.ts";

const STREAMS = Number(process.argv[2] ?? 2000);
const WORDS = Number(process.argv[3] ?? 40);
const CHUNK_DELAY_MS = Number(process.argv[4] ?? 100);
const MAX_CONNECTIONS = Number(process.argv[5] ?? 0);
/** Runs through the gateway and through the bare proxy, alternating (medians are reported). */
const ROUNDS = Number(process.argv[6] ?? 3);
const IDEAL_MS = WORDS * CHUNK_DELAY_MS;
/** The whole run gives up after this long. */
const DEADLINE_MS = 10 * 60_000;
const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);
const started: ChildProcess[] = [];
const deadline = setTimeout(() => {
  step("deadline reached; stopping");
  for (const c of started) c.kill("SIGKILL");
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

const rssMiB = (pid: number) => memory(pid).rss;

async function metric(url: string, name: string, labels = ""): Promise<number> {
  const text = await (await request(`${url}/metrics`)).body.text();
  let sum = 0;
  for (const line of text.split("\n")) if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) if (line.includes(labels)) sum += Number(line.slice(line.lastIndexOf(" ") + 1));
  return sum;
}

/** Heap used after a pause of `ms` and a full collection (SIGUSR2 → gc() in the bench's data-plane only). */
async function settledHeapMiB(url: string, pid: number, ms: number): Promise<number> {
  await new Promise((r) => setTimeout(r, ms));
  for (let i = 0; i < 2; i++) {
    process.kill(pid, "SIGUSR2");
    await new Promise((r) => setTimeout(r, 300));
  }
  return (await metric(url, "nodejs_heap_size_used_bytes")) / 2 ** 20;
}

/** Given to the data-plane this bench starts (not to a deployed one): a full GC on SIGUSR2, for the heap readings. */
const GC_ON_SIGNAL = ["--expose-gc", `--import=data:text/javascript,process.on("SIGUSR2",()=>globalThis.gc())`];

function spawnNode(script: string, env: Record<string, string>, nodeArgs: string[] = []): ChildProcess {
  const c = spawn(process.execPath, [...nodeArgs, script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  started.push(c);
  return c;
}

step("starting infrastructure");
const pg = await startPostgres();
const nats = await startNats();
const fakePort = await freePort();
spawnNode("packages/fake-upstream/dist/main.js", { FAKE_UPSTREAM_PORT: String(fakePort), FAKE_UPSTREAM_API_KEY });
await waitForPort(fakePort, 20_000);
const fakeUrl = `http://127.0.0.1:${fakePort}`;
const db = await createDatabase(pg.url, "bench_streams");
const token = "bench-admin-token-0123456789";
/** The data-plane's caller token at the control-plane and the ledger. */
const dpToken = "bench-data-plane-token-0123456789";
// Each service its own process, as deployed: the load generator's event loop is this process's
// alone (the ledger applying 2,000 usage events at the end of a run no longer delays it).
const [controlPort, ledgerPort] = [await freePort(), await freePort()];
const services = serviceEnv({ db, natsUrl: nats.url, controlPort, ledgerPort, adminToken: token, dpToken, logLevel: process.env.BENCH_LOG_LEVEL ?? "warn" });
spawnNode("apps/control-plane/dist/main.js", services.control);
spawnNode("apps/ledger/dist/main.js", services.ledger);
await Promise.all([waitForPort(controlPort, 30_000), waitForPort(ledgerPort, 30_000)]);
const controlAddr = `127.0.0.1:${controlPort}`;
const seeded = await seedDemo({ controlPlaneAddr: controlAddr, ledgerAddr: `127.0.0.1:${ledgerPort}`, adminToken: token, fakeUpstreamUrl: fakeUrl, orgName: "bench", topUpMinor: 1_000_000_000 });
if (MAX_CONNECTIONS > 0) {
  const admin = createClient(adminService(), controlAddr, { timeoutMs: 10_000, metadata: { authorization: `Bearer ${token}` } });
  const providers = demoCatalog(fakeUrl).providers.map((p) => (p.code === "fake" ? { ...p, max_connections: MAX_CONNECTIONS } : p));
  await admin.ApplyCatalog({ document_json: JSON.stringify({ providers }) });
}

/** BENCH_CPU_PROF: node flags that write a CPU profile of the data-plane and the bare proxy. */
const cpuProf = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
step("starting the data-plane");
const dpPort = await freePort();
const spool = mkdtempSync(join(tmpdir(), "bench-streams-spool-"));
const dp = spawnNode(
  "apps/data-plane/dist/main.js",
  {
    ...services.dataPlane,
    DATA_PLANE_PORT: String(dpPort),
    DATA_PLANE_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
    DATA_PLANE_SPOOL_DIR: spool,
    DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
  },
  [...DEPLOY_NODE_FLAGS, ...(process.env.BENCH_DP_FLAGS?.split(" ").filter(Boolean) ?? []), ...GC_ON_SIGNAL, ...cpuProf],
);
await waitForPort(dpPort, 20_000);
const dpUrl = `http://127.0.0.1:${dpPort}`;
for (let i = 0; i < 100; i++) {
  const r = await request(`${dpUrl}/v1/models`, { headers: { authorization: `Bearer ${seeded.secret}` } });
  const j = (await r.body.json()) as { data?: unknown[] };
  if (j.data?.length) break;
  await new Promise((r) => setTimeout(r, 100));
}

const newAgent = () => new Agent({ connections: STREAMS + 16, keepAliveTimeout: 30_000, headersTimeout: 120_000, bodyTimeout: 120_000 });
/** The load generator's connections: a fresh pool per run (see `run`). */
let agent = newAgent();
let open = 0;
let peakOpen = 0;
let failed = 0;
/** Per stream: ms from its request to its first chunk, and from its first chunk to its last. */
let firstChunkMs: number[] = [];
let streamingMs: number[] = [];

/** One stream through the gateway (or `to` another proxy): open once its first chunk arrived, until its last. */
async function stream(i: number, words: number, delayMs: number, to: string = dpUrl): Promise<number> {
  const body = JSON.stringify({ model: "gw-chat-mini", stream: true, max_tokens: 200, messages: [{ role: "user", content: `stream ${i} [[fake:words=${words},chunk_delay=${delayMs}]]` }] });
  const t = performance.now();
  let counted = false;
  try {
    const r = await request(`${to}/v1/chat/completions`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" }, body });
    if (r.statusCode !== 200) {
      failed++;
      await r.body.text();
      return performance.now() - t;
    }
    let first = 0;
    for await (const _chunk of r.body) {
      if (!counted) {
        counted = true;
        first = performance.now();
        firstChunkMs.push(first - t);
        peakOpen = Math.max(peakOpen, ++open);
      }
    }
    if (counted) streamingMs.push(performance.now() - first);
  } catch {
    failed++;
  } finally {
    if (counted) open--;
  }
  return performance.now() - t;
}

// The bare express + undici proxy on the same machine, run in alternation with the gateway: the
// floor this machine allows (the load generator and the fake upstream share its cores with it).
const barePort = await freePort();
const bare = spawnNode("bench/bare-proxy.ts", { BARE_PORT: String(barePort), BARE_UPSTREAM: fakeUrl, FAKE_UPSTREAM_API_KEY, BARE_CONNECTIONS: "4096" }, cpuProf);
await waitForPort(barePort, 20_000);
const bareUrl = `http://127.0.0.1:${barePort}`;
// A second bare proxy carries the uncounted burst that warms the fake upstream and the load
// generator, so that the measured one starts its first full burst as fresh as the replica does.
const warmPort = await freePort();
const warmer = spawnNode("bench/bare-proxy.ts", { BARE_PORT: String(warmPort), BARE_UPSTREAM: fakeUrl, FAKE_UPSTREAM_API_KEY, BARE_CONNECTIONS: "4096" });
await waitForPort(warmPort, 20_000);

step("warming up");
await Promise.all(Array.from({ length: 50 }, (_, i) => stream(i, 5, 10)));
await Promise.all(Array.from({ length: 50 }, (_, i) => stream(i, 5, 10, bareUrl)));
const before = { heap: await settledHeapMiB(dpUrl, dp.pid!, 2_000), rss: rssMiB(dp.pid!) };

/** One run of `STREAMS` streams at once through `to` (whose process is `pid`). */
interface Run {
  totalMs: number;
  durations: number[];
  /** Per stream: its request to its first chunk, and its first chunk to its last, ms. */
  first: number[];
  streaming: number[];
  /** The proxy's CPU (every thread, user and system) over the run, per stream, µs. */
  cpuPerStream: number;
  peakOpen: number;
}

/**
 * Every run starts cold, as 2,000 new callers do: the load generator's connections of the run before
 * are closed, and the pause before a run outlasts the fake upstream's 5 s keep-alive, so the proxy's
 * idle upstream connections are gone too. (Reusing them, the starts cost far less: in one run, the
 * gateway's rounds took 6.40, 5.13 and 4.72 s.)
 */
async function run(to: string, pid: number): Promise<Run> {
  await agent.close();
  await new Promise((resolve) => setTimeout(resolve, 6_000));
  agent = newAgent();
  peakOpen = 0;
  firstChunkMs = [];
  streamingMs = [];
  const cpu0 = cpuMicros(pid);
  const t0 = performance.now();
  const durations = await Promise.all(Array.from({ length: STREAMS }, (_, i) => stream(i, WORDS, CHUNK_DELAY_MS, to)));
  const totalMs = performance.now() - t0;
  return { totalMs, durations, first: firstChunkMs, streaming: streamingMs, cpuPerStream: (cpuMicros(pid) - cpu0) / STREAMS, peakOpen };
}

let peak = { rss: 0, heap: 0, open: 0 };
let lastScrape = 0;
/**
 * Set while the replica's first burst runs: its memory is sampled then (later rounds start from
 * the RSS the first left behind: the allocator keeps freed pages).
 */
let sampling = false;
const sampler = setInterval(() => {
  // At the plateau (most streams open) the replica holds the most per-stream state. RSS comes from
  // /proc; the heap from /metrics, at most once a second and only near the plateau: a scrape costs
  // the replica a walk of its ~2 × streams file descriptors, and every 250 ms through the start
  // of 2,000 streams that was ~5% of its CPU there (a deployment scrapes every 15–30 s).
  if (sampling && open >= peak.open) {
    peak = { ...peak, rss: rssMiB(dp.pid!), open };
    if (open >= 0.9 * STREAMS && performance.now() - lastScrape >= 1_000) {
      lastScrape = performance.now();
      void metric(dpUrl, "nodejs_heap_size_used_bytes").then((h) => {
        peak.heap = Math.max(peak.heap, h / 2 ** 20);
      });
    }
  }
}, 250);

// One burst of the same size through the bare proxy, not counted: the fake upstream and this load
// generator have then served 2,000 streams at once before the first counted run. Without it the
// first run (the gateway's) also paid for their first burst: every process on the machine is
// slower at its first burst of this size (the bare proxy's first took 0.7–1 s longer than its later ones).
step(`warming the fake upstream and the load generator: ${STREAMS} short streams through the bare proxy`);
await Promise.all(Array.from({ length: STREAMS }, (_, i) => stream(i, 5, CHUNK_DELAY_MS, `http://127.0.0.1:${warmPort}`)));
warmer.kill("SIGTERM");

// The replica's first burst of this size after it started, reported on its own: it is when V8
// compiles most of the paths that 2,000 concurrent streams take (in one run ~900 functions
// optimized during it, against ~170 during a later round, and ~40% more CPU per stream).
step(`the replica's first burst: ${STREAMS} streams`);
sampling = true;
const firstBurst = await run(dpUrl, dp.pid!);
sampling = false;
// The bare proxy's first burst after it started, the same way: what any fresh process pays.
step(`the bare proxy's first burst: ${STREAMS} streams`);
const bareFirst = await run(bareUrl, bare.pid!);

const gateway: Run[] = [];
const bareRuns: Run[] = [];
step(`${ROUNDS} rounds of ${STREAMS} streams of ${WORDS} words, one every ${CHUNK_DELAY_MS} ms (ideal ${IDEAL_MS} ms each), through the gateway and the bare proxy in turn`);
for (let r = 0; r < ROUNDS; r++) {
  // Each goes first every other round: neither always starts while the other's last streams settle.
  for (const target of r % 2 === 0 ? ["gateway", "bare"] : ["bare", "gateway"]) {
    if (target === "gateway") gateway.push(await run(dpUrl, dp.pid!));
    else bareRuns.push(await run(bareUrl, bare.pid!));
    step(`round ${r + 1}: ${target} done in ${((target === "gateway" ? gateway : bareRuns).at(-1)!.totalMs / 1000).toFixed(2)} s`);
  }
}
clearInterval(sampler);
const upstreamPeak = ((await (await request(`${fakeUrl}/_fake/connections`)).body.json()) as { peak: number }).peak;
const waitCount = await metric(dpUrl, "gateway_upstream_connection_wait_seconds_count", 'provider="fake"');
const waitSum = await metric(dpUrl, "gateway_upstream_connection_wait_seconds_sum", 'provider="fake"');
const bareRss = memory(bare.pid!).peak;
bare.kill("SIGTERM");

step("pausing to let the replica settle");
await agent.close();
// Past the fake upstream's 5 s keep-alive: the idle upstream connections are gone too.
const after = { heap: await settledHeapMiB(dpUrl, dp.pid!, 8_000), rss: rssMiB(dp.pid!) };

const median = (xs: number[]) => pct(xs, 50);
const s2 = (ms: number) => (ms / 1000).toFixed(2);
const list = (runs: Run[], f: (x: Run) => number, fmt: (v: number) => string) => runs.map((x) => fmt(f(x))).join(", ");
const perStreamKiB = peak.open > 0 ? ((peak.rss - before.rss) * 1024) / peak.open : 0;
const describe = (name: string, runs: Run[]) => {
  console.log(
    `  ${name}: all done in ${list(runs, (x) => x.totalMs, s2)} s (median ${s2(median(runs.map((x) => x.totalMs)))} s, ${(median(runs.map((x) => x.totalMs)) / IDEAL_MS).toFixed(2)}× the ideal)`,
  );
  console.log(`    open at once ${list(runs, (x) => x.peakOpen, String)}; per stream p50 ${list(runs, (x) => pct(x.durations, 50), s2)} s, p99 ${list(runs, (x) => pct(x.durations, 99), s2)} s`);
  // Where a run's time over the ideal went: the start of all the streams, or their streaming.
  console.log(`    first chunk p50 ${list(runs, (x) => pct(x.first, 50), s2)} s, max ${list(runs, (x) => pct(x.first, 100), s2)} s; streaming p99 ${list(runs, (x) => pct(x.streaming, 99), s2)} s`);
  console.log(
    `    CPU per stream (every thread) ${list(
      runs,
      (x) => x.cpuPerStream,
      (v) => v.toFixed(0),
    )} µs (median ${median(runs.map((x) => x.cpuPerStream)).toFixed(0)})`,
  );
};
const ratios = (f: (x: Run) => number) => gateway.map((g, i) => f(g) / f(bareRuns[i]!));
console.log(`streams ${STREAMS} × ${WORDS} words every ${CHUNK_DELAY_MS} ms (ideal ${s2(IDEAL_MS)} s), provider max_connections ${MAX_CONNECTIONS || "default"}, ${ROUNDS} alternating rounds`);
console.log(
  `  the replica's first burst after it started: all done in ${s2(firstBurst.totalMs)} s (${(firstBurst.totalMs / IDEAL_MS).toFixed(2)}× the ideal), open at once ${firstBurst.peakOpen}, first chunk max ${s2(pct(firstBurst.first, 100))} s, CPU per stream ${firstBurst.cpuPerStream.toFixed(0)} µs`,
);
console.log(
  `  the bare proxy's first burst after it started: all done in ${s2(bareFirst.totalMs)} s (${(bareFirst.totalMs / IDEAL_MS).toFixed(2)}× the ideal), first chunk max ${s2(pct(bareFirst.first, 100))} s, CPU per stream ${bareFirst.cpuPerStream.toFixed(0)} µs; the replica's × the bare proxy's: time ${(firstBurst.totalMs / bareFirst.totalMs).toFixed(2)}, CPU per stream ${(firstBurst.cpuPerStream / bareFirst.cpuPerStream).toFixed(2)}`,
);
describe("gateway", gateway);
describe("bare proxy", bareRuns);
console.log(
  `  gateway × bare proxy by round: time ${ratios((x) => x.totalMs)
    .map((v) => v.toFixed(2))
    .join(", ")}; CPU per stream ${ratios((x) => x.cpuPerStream)
    .map((v) => v.toFixed(2))
    .join(", ")}`,
);
console.log(
  `  failed ${failed}; ${upstreamPeak} connections at most at the fake upstream; connection wait mean ${waitCount ? ((waitSum / waitCount) * 1000).toFixed(1) : "0"} ms over ${waitCount} attempts`,
);
console.log(
  `  data-plane memory, its first burst: before RSS ${before.rss.toFixed(0)} MiB heap ${before.heap.toFixed(1)} MiB | peak (${peak.open} open) RSS ${peak.rss.toFixed(0)} MiB heap ${peak.heap.toFixed(1)} MiB (~${perStreamKiB.toFixed(0)} KiB RSS per open stream) | after RSS ${after.rss.toFixed(0)} MiB heap ${after.heap.toFixed(1)} MiB; bare proxy RSS peak ${bareRss.toFixed(0)} MiB`,
);
const summary = (runs: Run[]) => ({
  total_ms: runs.map((x) => Math.round(x.totalMs)),
  total_ms_median: Math.round(median(runs.map((x) => x.totalMs))),
  peak_open: runs.map((x) => x.peakOpen),
  first_chunk_max_ms: runs.map((x) => Math.round(pct(x.first, 100))),
  streaming_p99_ms: runs.map((x) => Math.round(pct(x.streaming, 99))),
  cpu_us_per_stream: runs.map((x) => Math.round(x.cpuPerStream)),
  cpu_us_per_stream_median: Math.round(median(runs.map((x) => x.cpuPerStream))),
});
console.log(
  JSON.stringify({
    bench: "streams",
    streams: STREAMS,
    words: WORDS,
    chunk_delay_ms: CHUNK_DELAY_MS,
    max_connections: MAX_CONNECTIONS,
    rounds: ROUNDS,
    ideal_ms: IDEAL_MS,
    failed,
    upstream_peak_connections: upstreamPeak,
    first_burst: summary([firstBurst]),
    bare_first_burst: summary([bareFirst]),
    gateway: summary(gateway),
    bare: { ...summary(bareRuns), rss_peak_mib: Math.round(bareRss) },
    ratio_by_round: { time: ratios((x) => x.totalMs).map((v) => Number(v.toFixed(2))), cpu_per_stream: ratios((x) => x.cpuPerStream).map((v) => Number(v.toFixed(2))) },
    connection_wait_mean_ms: waitCount ? Number(((waitSum / waitCount) * 1000).toFixed(2)) : 0,
    rss_mib: { before: Math.round(before.rss), peak: Math.round(peak.rss), after: Math.round(after.rss) },
    heap_mib: { before: Number(before.heap.toFixed(1)), peak: Number(peak.heap.toFixed(1)), after: Number(after.heap.toFixed(1)) },
    rss_kib_per_open_stream: Math.round(perStreamKiB),
  }),
);

for (const c of started) if (c.exitCode === null) c.kill("SIGTERM");
await Promise.all(started.map((c) => (c.exitCode !== null ? undefined : new Promise((r) => c.once("exit", r)))));
await nats.stop();
await pg.stop();
rmSync(spool, { recursive: true, force: true });
process.exit(0);
