/**
 * Hot-path benchmark: CPU the data-plane process spends per non-streaming request (from
 * /proc/<pid>/stat, so only that process is counted), client latency, and the time to a stream's
 * first byte through the gateway versus straight to the fake upstream. Compared with a bare
 * express + undici proxy. Bounded: fixed request counts on loopback; stops by itself.
 *
 *   make build && node apps/data-plane/bench/hot-path.ts [requests=4000] [concurrency=16]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { readFileSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Agent, request } from "undici";
import { createControlPlane, loadConfig as controlConfig } from "@gateway/control-plane";
import { createLedger, loadConfig as ledgerConfig } from "@gateway/ledger";
import { startFakeUpstream } from "@gateway/fake-upstream";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../../../scripts/lib/demo-catalog.ts";
import { seedDemo } from "../../../scripts/lib/seed.ts";

const N = Number(process.argv[2] ?? 4000);
const CONCURRENCY = Number(process.argv[3] ?? 16);
const STREAMS = 300;
const root = resolve(import.meta.dirname, "../../..");
const CLK_TCK = 100;

function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return ((Number(fields[11]) + Number(fields[12])) / CLK_TCK) * 1e6; // utime + stime
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
};

const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000 });
const body = JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "Say hello to the benchmark please" }], max_tokens: 64 });

async function load(url: string, key: string, n: number): Promise<number[]> {
  const lat: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < n) {
      next++;
      const t = performance.now();
      const r = await request(`${url}/v1/chat/completions`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body });
      await r.body.text();
      if (r.statusCode !== 200) throw new Error(`status ${r.statusCode}`);
      lat.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return lat;
}

async function firstByte(url: string, key: string, model: string, n: number): Promise<number[]> {
  const out: number[] = [];
  const b = JSON.stringify({ model, stream: true, messages: [{ role: "user", content: "stream me a few words" }] });
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    const r = await request(`${url}/v1/chat/completions`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${key}`, "content-type": "application/json" }, body: b });
    for await (const _chunk of r.body) {
      out.push(performance.now() - t);
      break;
    }
    await r.body.text().catch(() => undefined);
  }
  return out;
}

function spawnNode(script: string, env: Record<string, string>): ChildProcess {
  const prof = process.env.BENCH_CPU_PROF ? [`--cpu-prof`, `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  return spawn(process.execPath, [...prof, script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
}

async function measure(name: string, pid: number, url: string, key: string) {
  await load(url, key, 500); // warm-up (JIT, connection pools, leases, caches)
  const c0 = cpuMicros(pid);
  const t0 = performance.now();
  const lat = await load(url, key, N);
  const secs = (performance.now() - t0) / 1000;
  const cpu = (cpuMicros(pid) - c0) / N;
  console.log(`${name.padEnd(22)} cpu/request ${cpu.toFixed(0).padStart(4)} µs   rps ${(N / secs).toFixed(0).padStart(5)}   p50 ${pct(lat, 50).toFixed(2)} ms   p99 ${pct(lat, 99).toFixed(2)} ms`);
}

const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);
step("starting infrastructure");
const pg = await startPostgres();
const nats = await startNats();
const fake = await startFakeUpstream({ apiKey: FAKE_UPSTREAM_API_KEY });
const db = await createDatabase(pg.url, "bench");
const token = "bench-admin-token-0123456789";
const control = createControlPlane(controlConfig({ CONTROL_PLANE_DATABASE_URL: db, CONTROL_PLANE_NATS_URL: nats.url, CONTROL_PLANE_GRPC_PORT: "0", CONTROL_PLANE_OPS_PORT: "0", CONTROL_PLANE_ADMIN_TOKEN: token, CONTROL_PLANE_LOG_LEVEL: "silent" }));
await control.start();
const ledgerPort = await freePort();
const ledger = createLedger(ledgerConfig({ LEDGER_DATABASE_URL: db, LEDGER_NATS_URL: nats.url, LEDGER_GRPC_PORT: String(ledgerPort), LEDGER_OPS_PORT: "0", LEDGER_ADMIN_TOKEN: token, LEDGER_LOG_LEVEL: "silent" }));
await ledger.start();
const seeded = await seedDemo({ controlPlaneAddr: `127.0.0.1:${control.grpcPort}`, ledgerAddr: `127.0.0.1:${ledgerPort}`, adminToken: token, fakeUpstreamUrl: fake.url, orgName: "bench", topUpMinor: 1_000_000_000 });

step("seeded; starting data-plane and bare proxy");
const dpPort = await freePort();
const spool = mkdtempSync(join(tmpdir(), "bench-spool-"));
const dp = spawnNode("apps/data-plane/dist/main.js", {
  DATA_PLANE_PORT: String(dpPort),
  DATA_PLANE_CONTROL_PLANE_ADDR: `127.0.0.1:${control.grpcPort}`,
  DATA_PLANE_LEDGER_ADDR: `127.0.0.1:${ledgerPort}`,
  DATA_PLANE_NATS_URL: nats.url,
  DATA_PLANE_LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? "warn",
  DATA_PLANE_SPOOL_DIR: spool,
  FAKE_UPSTREAM_API_KEY,
});
const barePort = await freePort();
const bare = spawnNode("apps/data-plane/bench/bare-proxy.ts", { BARE_PORT: String(barePort), BARE_UPSTREAM: fake.url, FAKE_UPSTREAM_API_KEY });
await waitForPort(dpPort, 20_000);
await waitForPort(barePort, 20_000);
const dpUrl = `http://127.0.0.1:${dpPort}`;
// Wait until the seeded org is out of trial and visible.
for (let i = 0; i < 100; i++) {
  const r = await request(`${dpUrl}/v1/models`, { headers: { authorization: `Bearer ${seeded.secret}` } });
  const j = (await r.body.json()) as { data?: unknown[] };
  if (j.data?.length) break;
  await new Promise((r) => setTimeout(r, 100));
}

step("measuring");
console.log(`non-streaming: ${N} requests, concurrency ${CONCURRENCY}, loopback, fake upstream`);
await measure("bare express+undici", bare.pid!, `http://127.0.0.1:${barePort}`, seeded.secret);
await measure("gateway data-plane", dp.pid!, dpUrl, seeded.secret);

await firstByte(`http://127.0.0.1:${barePort}`, seeded.secret, "fake-chat", 50); // warm-up
await firstByte(dpUrl, seeded.secret, "gw-chat-mini", 50);
const direct = await firstByte(fake.url, FAKE_UPSTREAM_API_KEY, "fake-chat", STREAMS);
const viaBare = await firstByte(`http://127.0.0.1:${barePort}`, seeded.secret, "fake-chat", STREAMS);
const via = await firstByte(dpUrl, seeded.secret, "gw-chat-mini", STREAMS);
const fmt = (xs: number[]) => `p50 ${pct(xs, 50).toFixed(2)} ms p99 ${pct(xs, 99).toFixed(2)} ms`;
console.log(`stream first byte (${STREAMS} sequential): direct ${fmt(direct)} | via bare proxy ${fmt(viaBare)} | via gateway ${fmt(via)}`);
console.log(`  added by the gateway over direct: p50 ${(pct(via, 50) - pct(direct, 50)).toFixed(2)} ms p99 ${(pct(via, 99) - pct(direct, 99)).toFixed(2)} ms; over the bare proxy hop: p50 ${(pct(via, 50) - pct(viaBare, 50)).toFixed(2)} ms p99 ${(pct(via, 99) - pct(viaBare, 99)).toFixed(2)} ms`);

/** Resident memory of a process: now and its peak, MiB (from /proc/<pid>/status). */
function memory(pid: number): string {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(status)?.[1] ?? 0);
  return `RSS ${(kib("VmRSS") / 1024).toFixed(0)} MiB, peak ${(kib("VmHWM") / 1024).toFixed(0)} MiB`;
}
console.log(`memory after the run: gateway ${memory(dp.pid!)} | bare proxy ${memory(bare.pid!)}`);

const metrics = await (await request(`${dpUrl}/metrics`)).body.text();
console.log(metrics.split("\n").filter((l) => l.startsWith("gateway_usage_events_total") || l.startsWith("gateway_upstream_attempts_total")).join("\n"));
for (const c of [dp, bare]) c.kill("SIGTERM");
await Promise.all([dp, bare].map((c) => new Promise<void>((r) => {
  if (c.exitCode !== null) return r();
  const t = setTimeout(() => (c.kill("SIGKILL"), r()), 5_000);
  c.once("exit", () => (clearTimeout(t), r()));
})));
await ledger.stop();
await control.stop();
await fake.close();
await nats.stop();
await pg.stop();
await agent.close();
rmSync(spool, { recursive: true, force: true });
process.exit(0);
