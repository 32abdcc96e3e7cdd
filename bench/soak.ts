/**
 * Soak benchmark: one data-plane at saturation for a while, then idle, watching its memory.
 * Every component runs as its own process (fake upstream, control-plane, ledger, data-plane,
 * nats-server, Postgres), as in hot-path.ts. The load is a mix a real one has: non-streaming and
 * streaming chat (some clients leaving mid-stream), /v1/messages (plain and streamed), embeddings,
 * an organization with a guardrail webhook, upstream failures (retries, fallback, 502), and client
 * errors (invalid body 400, unknown model 404, unknown key 401), so a leak on an error path shows.
 *
 * The data-plane runs with the inspector on a loopback port (bench only): the bench forces a full
 * GC through it (HeapProfiler.collectGarbage) before reading the heap (Runtime.getHeapUsage), so
 * "heap" below is live objects, not garbage a lazy collector has not reclaimed yet. RSS comes from
 * /proc/<pid>/status every 2 s; its peak is the kernel's high-water mark (VmHWM).
 *
 * Reports the warm heap (after a warm-up at full load, collected), the heap after the load, the
 * heap at the end of the idle period (collected), the peak RSS, and pass/fail against the targets
 * (heap at the end within 15 MiB of warm, RSS peak ≤ 250 MiB). Ends with one JSON line
 * (`{"bench":"soak",…}`); exits 1 when a target is missed. Bounded: stops by itself after
 * warm-up + load + idle and ends only what it started.
 *
 *   make build && node bench/soak.ts [load_s=300] [idle_s=120] [concurrency=64]
 *
 * SOAK_SNAPSHOT_DIR=<dir>: also writes a heap snapshot of the data-plane when warm and at the end of
 * the idle period (compare them with bench/heap-diff.ts). Writing one takes ~150 MiB of native
 * memory that the allocator keeps: the RSS figures of such a run do not count. SOAK_NODE_FLAGS: node flags for the
 * data-plane instead of the deploy default (the image's NODE_OPTIONS, deploy/Dockerfile).
 */
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import { availableParallelism, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { adminService, createClient } from "@gateway/proto";
import { Agent, request } from "undici";
import { FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { DEPLOY_NODE_FLAGS } from "./deploy-flags.ts";
import { gitCommit, memory, root, serviceEnv, sleep, stopChild } from "../scripts/lib/bench.ts";
import { seedDemo } from "../scripts/lib/seed.ts";

const LOAD_S = Number(process.argv[2] ?? 300);
const IDLE_S = Number(process.argv[3] ?? 120);
const CONCURRENCY = Number(process.argv[4] ?? 64);
const WARMUP_S = Math.min(30, Math.max(5, Math.round(LOAD_S / 10)));
const TARGET_HEAP_GROWTH_MIB = 15;
const TARGET_RSS_PEAK_MIB = 250;
const NODE_FLAGS = process.env.SOAK_NODE_FLAGS !== undefined ? process.env.SOAK_NODE_FLAGS.split(/\s+/).filter(Boolean) : DEPLOY_NODE_FLAGS;
const SNAPSHOT_DIR = process.env.SOAK_SNAPSHOT_DIR ? resolve(process.env.SOAK_SNAPSHOT_DIR) : undefined;
const MiB = 1024 * 1024;

const step = (m: string) => process.stderr.write(`[soak ${new Date().toISOString().slice(11, 19)}] ${m}\n`);
const round = (x: number, digits = 1) => Math.round(x * 10 ** digits) / 10 ** digits;

/** Anonymous and file-backed resident memory, MiB (smaps_rollup). */
function smaps(pid: number): string {
  try {
    const t = readFileSync(`/proc/${pid}/smaps_rollup`, "utf8");
    const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(t)?.[1] ?? 0);
    return `anonymous ${Math.round(kib("Anonymous") / 1024)} MiB, file ${Math.round((kib("Rss") - kib("Anonymous")) / 1024)} MiB`;
  } catch {
    return "";
  }
}

/** A Chrome DevTools Protocol session on the data-plane's inspector port. */
class Inspector {
  private next = 0;
  private readonly waiting = new Map<number, (m: { result?: unknown; error?: { message: string } }) => void>();
  private readonly ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.onmessage = (e) => {
      const m = JSON.parse(String(e.data)) as { id?: number; result?: unknown; error?: { message: string } };
      if (m.id !== undefined) this.waiting.get(m.id)?.(m);
    };
  }

  static async open(port: number): Promise<Inspector> {
    const list = (await (await fetch(`http://127.0.0.1:${port}/json/list`)).json()) as Array<{ webSocketDebuggerUrl: string }>;
    const ws = new WebSocket(list[0]!.webSocketDebuggerUrl);
    await new Promise<void>((ok, fail) => {
      ws.onopen = () => ok();
      ws.onerror = () => fail(new Error("inspector connection failed"));
    });
    return new Inspector(ws);
  }

  send<T>(method: string, params: object = {}): Promise<T> {
    const id = ++this.next;
    return new Promise<T>((ok, fail) => {
      this.waiting.set(id, (m) => {
        this.waiting.delete(id);
        if (m.error) fail(new Error(`${method}: ${m.error.message}`));
        else ok(m.result as T);
      });
      this.ws.send(JSON.stringify({ id, method, params }));
    });
  }

  /** Live heap after a full collection (twice: weak references and finalizers take a second pass), MiB. */
  async collectedHeap(): Promise<number> {
    await this.send("HeapProfiler.collectGarbage");
    await this.send("HeapProfiler.collectGarbage");
    return this.heap();
  }

  /** Heap in use now, garbage included, MiB. */
  async heap(): Promise<number> {
    const u = await this.send<{ usedSize: number }>("Runtime.getHeapUsage");
    return u.usedSize / MiB;
  }

  /** Where the process's memory is, MiB: V8's heap spaces (committed), external and array buffers. */
  async breakdown(): Promise<Record<string, number>> {
    const expr = `JSON.stringify((() => {
      const m = process.memoryUsage();
      const out = { heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: m.external, arrayBuffers: m.arrayBuffers };
      for (const s of process.getBuiltinModule("v8").getHeapSpaceStatistics()) out[s.space_name] = s.space_size;
      return out;
    })())`;
    const r = await this.send<{ result: { value: string } }>("Runtime.evaluate", { expression: expr, returnByValue: true });
    return Object.fromEntries(Object.entries(JSON.parse(r.result.value) as Record<string, number>).map(([k, v]) => [k, round(v / MiB)]));
  }

  close(): void {
    this.ws.close();
  }
}

// ---- infrastructure ---------------------------------------------------------------------------

step("starting infrastructure");
const pg = await startPostgres();
const nats = await startNats();
const db = await createDatabase(pg.url, "soak");
const token = "soak-admin-token-0123456789";
/** The data-plane's caller token at the control-plane and the ledger. */
const dpToken = "bench-data-plane-token-0123456789";
const [fakePort, controlPort, ledgerPort, dpPort, inspectPort] = (await Promise.all(Array.from({ length: 5 }, () => freePort()))) as [number, number, number, number, number];
const fakeUrl = `http://127.0.0.1:${fakePort}`;
const silent = process.env.BENCH_LOG_LEVEL ?? "warn";
const children: ChildProcess[] = [];
const spool = mkdtempSync(join(tmpdir(), "soak-spool-"));
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
  rmSync(spool, { recursive: true, force: true });
});
const spawnNode = (args: string[], env: Record<string, string>, stderr: "inherit" | "pipe" = "inherit") =>
  spawn(process.execPath, args, { cwd: root, env: { ...process.env, NODE_OPTIONS: "", ...env }, stdio: ["ignore", "ignore", stderr] });

const services = serviceEnv({ db, natsUrl: nats.url, controlPort, ledgerPort, adminToken: token, dpToken, logLevel: silent });
children.push(spawnNode(["packages/fake-upstream/dist/main.js"], { FAKE_UPSTREAM_PORT: String(fakePort), FAKE_UPSTREAM_API_KEY }));
const control = spawnNode(["apps/control-plane/dist/main.js"], services.control);
const ledger = spawnNode(["apps/ledger/dist/main.js"], services.ledger);
children.push(control, ledger);
await Promise.all([waitForPort(fakePort, 30_000), waitForPort(controlPort, 30_000), waitForPort(ledgerPort, 30_000)]);

// The moderation service of the guarded organization: allows everything, answering in a few ms.
const hook = createServer((req, res) => {
  req.resume();
  req.on("end", () => setTimeout(() => res.end('{"action":"allow"}'), 2));
});
hook.listen(0, "127.0.0.1");
await once(hook, "listening");
const hookUrl = `http://127.0.0.1:${(hook.address() as { port: number }).port}/check`;

const seedArgs = { controlPlaneAddr: `127.0.0.1:${controlPort}`, ledgerAddr: `127.0.0.1:${ledgerPort}`, adminToken: token, fakeUpstreamUrl: fakeUrl, topUpMinor: 1_000_000_000_000 };
const plain = await seedDemo({ ...seedArgs, orgName: "soak" });
const guarded = await seedDemo({ ...seedArgs, orgName: "soak-guarded" });
const admin = createClient(adminService(), `127.0.0.1:${controlPort}`, { timeoutMs: 10_000, metadata: { authorization: `Bearer ${token}` } });
// The longest timeout a rule may have: a per-call timer that outlived its call would stay 10 s.
await admin.SetGuardrails({ org: guarded.orgId, document: `rules:\n  - plugin: webhook\n    config: { url: "${hookUrl}", timeout_ms: 10000 }\n  - plugin: pii\n    action: mask\n` });
admin.close();

step(`seeded; starting the data-plane (node ${NODE_FLAGS.join(" ") || "(no flags)"})`);
if (SNAPSHOT_DIR) mkdirSync(SNAPSHOT_DIR, { recursive: true });
const dp = spawnNode(
  [`--inspect=127.0.0.1:${inspectPort}`, ...NODE_FLAGS, ...(SNAPSHOT_DIR ? ["--heapsnapshot-signal=SIGUSR2", `--diagnostic-dir=${SNAPSHOT_DIR}`] : []), "apps/data-plane/dist/main.js"],
  {
    ...services.dataPlane,
    DATA_PLANE_PORT: String(dpPort),
    DATA_PLANE_LOG_LEVEL: silent,
    DATA_PLANE_SPOOL_DIR: spool,
    DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
  },
  "pipe",
);
children.push(dp);
// The inspector announces itself on stderr; everything else goes through.
dp.stderr!.on("data", (b: Buffer) => {
  const text = b
    .toString()
    .split("\n")
    .filter((l) => l && !/^(Debugger listening|For help, see|Debugger attached|Debugger ending)/.test(l))
    .join("\n");
  if (text) process.stderr.write(`${text}\n`);
});
await waitForPort(dpPort, 30_000);
const gatewayUrl = `http://127.0.0.1:${dpPort}`;
for (const key of [plain.secret, guarded.secret]) {
  for (let i = 0; i < 100; i++) {
    const r = await request(`${gatewayUrl}/v1/models`, { headers: { authorization: `Bearer ${key}` } });
    const j = (await r.body.json()) as { data?: unknown[] };
    if (j.data?.length) break;
    await sleep(100);
  }
}
const inspector = await Inspector.open(inspectPort);

// ---- the load ---------------------------------------------------------------------------------

const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000 });
interface Kind {
  name: string;
  weight: number;
  path: string;
  key?: string;
  body: () => object | string;
  stream?: boolean;
  /** Leaves after this many body chunks (the client going away mid-stream). */
  leaveAfter?: number;
  expect: number;
}
const chat = (model: string, content: string, extra: object = {}) => ({ model, messages: [{ role: "user", content }], max_tokens: 512, ...extra });
const prompt = "Summarise the quarterly planning notes for the benchmark please";
const kinds: Kind[] = [
  { name: "chat", weight: 30, path: "/v1/chat/completions", body: () => chat("gw-chat-mini", prompt), expect: 200 },
  {
    name: "chat_stream",
    weight: 16,
    path: "/v1/chat/completions",
    stream: true,
    body: () => chat("gw-chat-mini", `${prompt} [[fake:words=80]]`, { stream: true, stream_options: { include_usage: true } }),
    expect: 200,
  },
  {
    name: "chat_stream_left",
    weight: 6,
    path: "/v1/chat/completions",
    stream: true,
    leaveAfter: 2,
    body: () => chat("gw-chat-mini", `${prompt} [[fake:words=400,chunk_delay=3]]`, { stream: true }),
    expect: 200,
  },
  { name: "messages", weight: 8, path: "/v1/messages", body: () => chat("gw-claude", prompt), expect: 200 },
  { name: "messages_stream", weight: 5, path: "/v1/messages", stream: true, body: () => chat("gw-claude", `${prompt} [[fake:words=60]]`, { stream: true }), expect: 200 },
  { name: "embeddings", weight: 10, path: "/v1/embeddings", body: () => ({ model: "gw-embed-small", input: [prompt, "a second input to embed"] }), expect: 200 },
  { name: "guarded_chat", weight: 6, path: "/v1/chat/completions", key: guarded.secret, body: () => chat("gw-chat-mini", `${prompt}, mail jane.doe@example.com`), expect: 200 },
  { name: "upstream_fails", weight: 2, path: "/v1/chat/completions", body: () => chat("gw-chat-large", `${prompt} [[fake:status=503]]`), expect: 502 },
  { name: "invalid_body", weight: 5, path: "/v1/chat/completions", body: () => ({ model: "gw-chat-mini", messages: "not a list" }), expect: 400 },
  { name: "malformed_json", weight: 2, path: "/v1/chat/completions", body: () => '{"model": "gw-chat-mini", "messages": [', expect: 400 },
  { name: "unknown_model", weight: 5, path: "/v1/chat/completions", body: () => chat("gw-no-such-model", prompt), expect: 404 },
  { name: "unknown_key", weight: 3, path: "/v1/chat/completions", key: "", body: () => chat("gw-chat-mini", prompt), expect: 401 },
  { name: "models", weight: 2, path: "/v1/models", body: () => "", expect: 200 },
];
const totalWeight = kinds.reduce((n, k) => n + k.weight, 0);
/** Deterministic mix (a small LCG): two runs send the same sequence of kinds. */
let seed = 12;
function pick(): Kind {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  let x = (seed / 2 ** 31) * totalWeight;
  for (const k of kinds) if ((x -= k.weight) < 0) return k;
  return kinds[0]!;
}
const stats = new Map<string, { sent: number; unexpected: number; statuses: Record<string, number> }>(kinds.map((k) => [k.name, { sent: 0, unexpected: 0, statuses: {} }]));

async function one(k: Kind): Promise<void> {
  const s = stats.get(k.name)!;
  s.sent++;
  // Unknown keys differ on every request: each one is a negative entry in the key cache.
  const key = k.key === "" ? `sk-gateway-unknown${Math.random().toString(36).slice(2).padEnd(24, "x")}` : (k.key ?? plain.secret);
  const body = k.body();
  const leave = k.leaveAfter ? new AbortController() : undefined;
  let status = "error";
  try {
    const r = await request(`${gatewayUrl}${k.path}`, {
      method: k.path === "/v1/models" ? "GET" : "POST",
      dispatcher: agent,
      headers: { authorization: `Bearer ${key}`, "content-type": "application/json" },
      ...(k.path === "/v1/models" ? {} : { body: typeof body === "string" ? body : JSON.stringify(body) }),
      ...(leave ? { signal: leave.signal } : {}),
    });
    status = String(r.statusCode);
    if (leave && r.statusCode === 200) {
      let chunks = 0;
      try {
        for await (const _ of r.body) if (++chunks >= k.leaveAfter!) leave.abort();
      } catch {
        // the abort ends the read
      }
    } else await r.body.dump({ limit: 1 << 20 });
  } catch {
    status = "error";
  }
  s.statuses[status] = (s.statuses[status] ?? 0) + 1;
  if (status !== String(k.expect)) s.unexpected++;
}

/** Keeps CONCURRENCY requests in flight until `until` (performance.now() ms). */
async function load(until: number): Promise<number> {
  let done = 0;
  const worker = async () => {
    while (performance.now() < until) {
      await one(pick());
      done++;
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return done;
}

/** Writes a heap snapshot (the process answers again once it is written). */
async function snapshot(label: string): Promise<void> {
  if (!SNAPSHOT_DIR) return;
  const before = new Set(readdirSync(SNAPSHOT_DIR));
  process.kill(dp.pid!, "SIGUSR2");
  await sleep(500);
  await (await request(`${gatewayUrl}/healthz`)).body.text();
  const made = readdirSync(SNAPSHOT_DIR).filter((f) => !before.has(f));
  step(`heap snapshot (${label}): ${made.map((f) => join(SNAPSHOT_DIR, f)).join(", ")}`);
}

interface Sample {
  t: number;
  phase: "load" | "idle";
  rss: number;
  heap: number;
}
const samples: Sample[] = [];
let phase: Sample["phase"] = "load";
const t0 = performance.now();
const sampler = setInterval(() => {
  void inspector.heap().then(
    (heap) => samples.push({ t: (performance.now() - t0) / 1000, phase, rss: memory(dp.pid!).rss, heap }),
    () => undefined,
  );
}, 2_000);

const startRss = memory(dp.pid!).rss;
const startHeap = await inspector.collectedHeap();
step(`data-plane up: heap ${startHeap.toFixed(1)} MiB (collected), RSS ${startRss.toFixed(0)} MiB; warm-up ${WARMUP_S} s at concurrency ${CONCURRENCY}`);
const warmRequests = await load(performance.now() + WARMUP_S * 1000);
const warmHeap = await inspector.collectedHeap();
const warmRss = memory(dp.pid!).rss;
step(`warm after ${warmRequests} requests: heap ${warmHeap.toFixed(1)} MiB (collected), RSS ${warmRss.toFixed(0)} MiB`);
await snapshot("warm");

step(`load: ${LOAD_S} s at concurrency ${CONCURRENCY}`);
const loadStart = performance.now();
const loadEnd = loadStart + LOAD_S * 1000;
/** Heap after a full collection, once a minute under load: a leak is a line that keeps rising. */
const collectedUnderLoad: Array<{ t: number; heap: number }> = [];
let requests = 0;
const running = load(loadEnd).then((n) => (requests = n));
while (performance.now() < loadEnd - 5_000) {
  await sleep(Math.min(60_000, loadEnd - 5_000 - performance.now()));
  if (performance.now() >= loadEnd - 5_000) break;
  const heap = await inspector.collectedHeap();
  collectedUnderLoad.push({ t: Math.round((performance.now() - loadStart) / 1000), heap: round(heap) });
  const m = memory(dp.pid!);
  step(`  +${Math.round((performance.now() - loadStart) / 1000)} s: heap ${heap.toFixed(1)} MiB (collected), RSS ${m.rss.toFixed(0)} MiB, peak ${m.peak.toFixed(0)} MiB`);
}
await running;
const loadSecs = (performance.now() - loadStart) / 1000;
const afterLoad = memory(dp.pid!);
const afterLoadHeap = await inspector.heap();
const afterLoadBreakdown = await inspector.breakdown();
step(`  memory after load (MiB): ${JSON.stringify(afterLoadBreakdown)} ${smaps(dp.pid!)}`);
step(
  `load done: ${requests} requests (${Math.round(requests / loadSecs)}/s); heap ${afterLoadHeap.toFixed(1)} MiB (uncollected), RSS ${afterLoad.rss.toFixed(0)} MiB, peak ${afterLoad.peak.toFixed(0)} MiB`,
);

phase = "idle";
step(`idle: ${IDLE_S} s`);
const idleEnd = performance.now() + IDLE_S * 1000;
while (performance.now() < idleEnd) await sleep(Math.min(5_000, idleEnd - performance.now()));
const idleHeapUncollected = await inspector.heap();
const idleRss = memory(dp.pid!).rss;
const endHeap = await inspector.collectedHeap();
const end = memory(dp.pid!);
step(`  memory at the end (MiB): ${JSON.stringify(await inspector.breakdown())} ${smaps(dp.pid!)}`);
step(`end of idle: heap ${idleHeapUncollected.toFixed(1)} MiB before collection, ${endHeap.toFixed(1)} MiB after; RSS ${idleRss.toFixed(0)} MiB`);
await snapshot("end of idle");
clearInterval(sampler);

// ---- report -----------------------------------------------------------------------------------

const loadSamples = samples.filter((s) => s.phase === "load");
const peakRss = Math.max(end.peak, ...samples.map((s) => s.rss));
const heapGrowth = endHeap - warmHeap;
const pass = { heap: heapGrowth <= TARGET_HEAP_GROWTH_MIB, rss: peakRss <= TARGET_RSS_PEAK_MIB };
const mix = Object.fromEntries([...stats].map(([name, s]) => [name, s.sent]));
const unexpected = Object.fromEntries([...stats].filter(([, s]) => s.unexpected > 0).map(([name, s]) => [name, s.statuses]));

console.log(`soak: ${LOAD_S} s at concurrency ${CONCURRENCY} (after ${WARMUP_S} s warm-up), then ${IDLE_S} s idle; ${availableParallelism()} cores`);
console.log(
  `requests: ${requests} (${Math.round(requests / loadSecs)}/s): ${Object.entries(mix)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ")}`,
);
if (Object.keys(unexpected).length) console.log(`unexpected statuses: ${JSON.stringify(unexpected)}`);
console.log(
  `heap (after a full GC): start ${startHeap.toFixed(1)} MiB, warm ${warmHeap.toFixed(1)} MiB, under load ${collectedUnderLoad.map((c) => `${c.heap}@${c.t}s`).join(" ") || "-"}, end of idle ${endHeap.toFixed(1)} MiB (${heapGrowth >= 0 ? "+" : ""}${heapGrowth.toFixed(1)} MiB vs warm; target ≤ +${TARGET_HEAP_GROWTH_MIB}) ${pass.heap ? "PASS" : "FAIL"}`,
);
console.log(`heap in use under load (garbage included): max ${Math.max(...loadSamples.map((s) => s.heap)).toFixed(0)} MiB`);
if (SNAPSHOT_DIR) console.log("RSS below includes the heap snapshots' native memory (SOAK_SNAPSHOT_DIR): not comparable");
console.log(
  `RSS: start ${startRss.toFixed(0)} MiB, warm ${warmRss.toFixed(0)} MiB, after load ${afterLoad.rss.toFixed(0)} MiB, end of idle ${idleRss.toFixed(0)} MiB, peak ${peakRss.toFixed(0)} MiB (target ≤ ${TARGET_RSS_PEAK_MIB}) ${pass.rss ? "PASS" : "FAIL"}`,
);

console.log(
  JSON.stringify({
    bench: "soak",
    date: new Date().toISOString().slice(0, 10),
    commit: gitCommit(),
    cores: availableParallelism(),
    node_flags: NODE_FLAGS.join(" "),
    load_s: LOAD_S,
    idle_s: IDLE_S,
    concurrency: CONCURRENCY,
    requests,
    rps: Math.round(requests / loadSecs),
    heap_mib: { start: round(startHeap), warm: round(warmHeap), end_of_idle: round(endHeap), growth: round(heapGrowth), under_load_collected: collectedUnderLoad.map((c) => c.heap) },
    rss_mib: { start: Math.round(startRss), warm: Math.round(warmRss), after_load: Math.round(afterLoad.rss), end_of_idle: Math.round(idleRss), peak: Math.round(peakRss) },
    unexpected_statuses: Object.values(unexpected).length ? unexpected : undefined,
    pass: pass.heap && pass.rss,
  }),
);

inspector.close();
hook.close();
for (const c of [...children].reverse()) await stopChild(c);
await nats.stop();
await pg.stop();
await agent.close();
process.exit(pass.heap && pass.rss ? 0 : 1);
