/**
 * Stream CPU benchmark: what one streamed chunk costs the data-plane against a bare express +
 * undici proxy that pipes the upstream's bytes, in alternating rounds on the same fake upstream.
 * Every component runs as its own process (fake upstream, control-plane, ledger, data-plane, the
 * bare proxy, nats-server, Postgres, and Portkey's gateway when `BENCH_PORTKEY` names a folder where
 * `@portkey-ai/gateway` is installed: see PEERS.md), so /proc gives each one's CPU.
 *
 * Each round runs `streams` streams of `words` one-word chunks (usage in the last chunk), at
 * `concurrency`, through every target in turn:
 *   - bare chat / bare messages: the bare proxy piping chat completions / Messages;
 *   - passthrough chat: chat completions to an OpenAI-shaped deployment (gw-chat-mini);
 *   - passthrough messages: Messages to an Anthropic deployment (gw-claude);
 *   - translated messages→chat: Messages to the OpenAI-shaped deployment;
 *   - translated chat→messages: chat completions to the Anthropic deployment;
 *   - portkey chat (optional): chat completions through Portkey to the same upstream.
 * Reports, per target, streams/s, the proxy process's CPU per stream and per chunk (the slope between
 * the round's long streams and as many short ones), write system calls per stream, and the ratios
 * to the bare proxy piping the provider's wire format (by round, median: the bytes read per chunk
 * are the same; a translated stream's client format differs); for the gateway also what the
 * control-plane, ledger, NATS and Postgres spend per stream (the whole system's CPU per stream). Ends with one
 * JSON line (`{"bench":"stream-cpu",…}`). Bounded: fixed counts on loopback; ends only what it started.
 *
 *   make build && node bench/stream-cpu.ts [streams=400] [words=200] [concurrency=32] [rounds=3] [chunk_delay_ms=0]
 *
 * With chunk_delay_ms 0 the fake upstream writes each stream at once and it reaches the proxies in
 * a few reads (the per-stream costs dominate); with a delay (2 ms, say, and more concurrency) every
 * chunk is a read of its own, as with a real provider, and the per-chunk costs show.
 *
 * `BENCH_CPU_PROF=<dir>` writes the data-plane's and the bare proxy's CPU profiles there and runs
 * only the long streams, max(200, streams/2) to warm up and `streams` per round, so a profile divides
 * evenly by stream (`node bench/profile-summary.ts <dir> --stages --per=<streams>`).
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { seedDemo } from "../scripts/lib/seed.ts";
import { DEPLOY_NODE_FLAGS } from "./deploy-flags.ts";
import { cpuMicros, gitCommit, memory, pct, root, serviceEnv, stopChild, treeCpu, treeDelta } from "../scripts/lib/bench.ts";

const STREAMS = Number(process.argv[2] ?? 400);
const WORDS = Number(process.argv[3] ?? 200);
const CONCURRENCY = Number(process.argv[4] ?? 32);
const ROUNDS = Number(process.argv[5] ?? 3);
/** 0: the upstream writes a stream's chunks at once (a few reads per stream); > 0: one chunk every this many ms (about one read per chunk, as real providers send them). */
const CHUNK_DELAY_MS = Number(process.argv[6] ?? 0);
const PORTKEY = process.env.BENCH_PORTKEY;
const PROFILED = Boolean(process.env.BENCH_CPU_PROF);
const DEADLINE_MS = 20 * 60_000;
const r2 = (x: number) => Math.round(x * 100) / 100;
const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);

const children: ChildProcess[] = [];
const deadline = setTimeout(() => {
  step("deadline reached; stopping");
  process.exit(2);
}, DEADLINE_MS);
deadline.unref();

function spawnNode(script: string, env: Record<string, string>, args: string[] = [], nodeArgs: string[] = []): ChildProcess {
  const profiled = process.env.BENCH_CPU_PROF && (script === "apps/data-plane/dist/main.js" || script.endsWith("bare-proxy.ts"));
  const prof = profiled ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
  const flags = script === "apps/data-plane/dist/main.js" ? DEPLOY_NODE_FLAGS : [];
  const c = spawn(process.execPath, [...flags, ...prof, ...nodeArgs, script, ...args], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
  children.push(c);
  return c;
}

step("starting infrastructure");
const pg = await startPostgres();
const nats = await startNats();
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
const db = await createDatabase(pg.url, "bench_stream_cpu");
const token = "bench-admin-token-0123456789";
const dpToken = "bench-data-plane-token-0123456789";
const [fakePort, controlPort, ledgerPort, ledgerOpsPort, dpPort, barePort, portkeyPort] = (await Promise.all(Array.from({ length: 7 }, () => freePort()))) as number[] as [
  number,
  number,
  number,
  number,
  number,
  number,
  number,
];
const fakeUrl = `http://127.0.0.1:${fakePort}`;
const quiet = process.env.BENCH_LOG_LEVEL ?? "warn";
const services = serviceEnv({ db, natsUrl: nats.url, controlPort, ledgerPort, ledgerOpsPort, adminToken: token, dpToken, logLevel: quiet });
const fake = spawnNode("packages/fake-upstream/dist/main.js", { FAKE_UPSTREAM_PORT: String(fakePort), FAKE_UPSTREAM_API_KEY });
const control = spawnNode("apps/control-plane/dist/main.js", services.control);
const ledger = spawnNode("apps/ledger/dist/main.js", services.ledger);
await Promise.all([waitForPort(fakePort, 30_000), waitForPort(controlPort, 30_000), waitForPort(ledgerPort, 30_000)]);
const seeded = await seedDemo({
  controlPlaneAddr: `127.0.0.1:${controlPort}`,
  ledgerAddr: `127.0.0.1:${ledgerPort}`,
  adminToken: token,
  fakeUpstreamUrl: fakeUrl,
  orgName: "bench",
  topUpMinor: 1_000_000_000_000,
});
step("seeded; starting the data-plane, the bare proxy" + (PORTKEY ? " and Portkey" : ""));
const spool = mkdtempSync(join(tmpdir(), "bench-stream-cpu-spool-"));
const dp = spawnNode("apps/data-plane/dist/main.js", {
  ...services.dataPlane,
  DATA_PLANE_PORT: String(dpPort),
  DATA_PLANE_LOG_LEVEL: quiet,
  DATA_PLANE_SPOOL_DIR: spool,
  DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
});
const bare = spawnNode("bench/bare-proxy.ts", { BARE_PORT: String(barePort), BARE_UPSTREAM: fakeUrl, FAKE_UPSTREAM_API_KEY });
// Portkey listens on every interface unless told otherwise: a preload gives `listen` the loopback host.
const LOOPBACK = `--import=data:text/javascript,import net from "node:net";const l=net.Server.prototype.listen;net.Server.prototype.listen=function(...a){if(typeof a[0]==="number"&&typeof a[1]!=="string")a.splice(1,0,"127.0.0.1");else if(a[0]&&typeof a[0]==="object"&&!a[0].host)a[0]={...a[0],host:"127.0.0.1"};return l.apply(this,a)}`;
const portkey = PORTKEY
  ? spawnNode(join(PORTKEY, "node_modules/@portkey-ai/gateway/build/start-server.js"), { NODE_ENV: "production" }, [`--port=${portkeyPort}`, "--headless"], [LOOPBACK])
  : undefined;
await Promise.all([waitForPort(dpPort, 30_000), waitForPort(barePort, 30_000), ...(portkey ? [waitForPort(portkeyPort, 30_000)] : [])]);
const gw = `http://127.0.0.1:${dpPort}`;
for (let i = 0; i < 100; i++) {
  const r = await request(`${gw}/v1/models`, { headers: { authorization: `Bearer ${seeded.secret}` } });
  const j = (await r.body.json()) as { data?: unknown[] };
  if (j.data?.length) break;
  await new Promise((r) => setTimeout(r, 100));
}

type Wire = "chat" | "messages";
interface Target {
  name: string;
  /** The process whose CPU is the target's. */
  pid: number;
  /** The client's wire format. */
  wire: Wire;
  /**
   * The provider's wire format: the target is compared with the bare proxy piping it (the bytes
   * every proxy must read per chunk; for a translated stream they are not the client's).
   */
  upstream: Wire;
  gateway: boolean;
  url: string;
  headers: Record<string, string>;
  model: string;
}
const bodyOf = (t: Target, words: number) => {
  const prompt = `benchmark stream [[fake:words=${words}${CHUNK_DELAY_MS ? `,chunk_delay=${CHUNK_DELAY_MS}` : ""}]]`;
  return JSON.stringify(
    t.wire === "chat"
      ? { model: t.model, stream: true, stream_options: { include_usage: true }, max_tokens: words + 16, messages: [{ role: "user", content: prompt }] }
      : { model: t.model, stream: true, max_tokens: words + 16, messages: [{ role: "user", content: prompt }] },
  );
};
/** The short streams of each round: the slope between them and the long ones is the CPU of one chunk. */
const SHORT = Math.max(2, Math.round(WORDS / 10));
const gwAuth = { authorization: `Bearer ${seeded.secret}`, "content-type": "application/json" };
const anthropicAuth = { "x-api-key": seeded.secret, "anthropic-version": "2023-06-01", "content-type": "application/json" };
const allTargets: Target[] = [
  { name: "bare chat", pid: bare.pid!, wire: "chat", upstream: "chat", gateway: false, url: `http://127.0.0.1:${barePort}/v1/chat/completions`, headers: gwAuth, model: "fake-chat" },
  { name: "bare messages", pid: bare.pid!, wire: "messages", upstream: "messages", gateway: false, url: `http://127.0.0.1:${barePort}/v1/messages`, headers: anthropicAuth, model: "fake-claude" },
  { name: "passthrough chat", pid: dp.pid!, wire: "chat", upstream: "chat", gateway: true, url: `${gw}/v1/chat/completions`, headers: gwAuth, model: "gw-chat-mini" },
  { name: "passthrough messages", pid: dp.pid!, wire: "messages", upstream: "messages", gateway: true, url: `${gw}/v1/messages`, headers: anthropicAuth, model: "gw-claude" },
  { name: "translated messages→chat", pid: dp.pid!, wire: "messages", upstream: "chat", gateway: true, url: `${gw}/v1/messages`, headers: anthropicAuth, model: "gw-chat-mini" },
  { name: "translated chat→messages", pid: dp.pid!, wire: "chat", upstream: "messages", gateway: true, url: `${gw}/v1/chat/completions`, headers: gwAuth, model: "gw-claude" },
  ...(portkey
    ? [
        {
          name: "portkey chat",
          pid: portkey.pid!,
          wire: "chat" as const,
          upstream: "chat" as const,
          gateway: false,
          url: `http://127.0.0.1:${portkeyPort}/v1/chat/completions`,
          headers: { authorization: `Bearer ${FAKE_UPSTREAM_API_KEY}`, "x-portkey-provider": "openai", "x-portkey-custom-host": `${fakeUrl}/v1`, "content-type": "application/json" },
          model: "fake-chat",
        },
      ]
    : []),
];
/** `BENCH_TARGETS=bare chat,passthrough chat` runs only those (a profile of one path, say). */
const only = process.env.BENCH_TARGETS?.split(",").map((s) => s.trim());
const targets = only ? allTargets.filter((t) => only.includes(t.name)) : allTargets;

const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000 });
let sawBytes = 0;
async function one(t: Target, words: number): Promise<void> {
  const r = await request(t.url, { method: "POST", dispatcher: agent, headers: t.headers, body: bodyOf(t, words) });
  if (r.statusCode !== 200) throw new Error(`${t.name}: status ${r.statusCode}: ${await r.body.text()}`);
  let n = 0;
  for await (const chunk of r.body) n += (chunk as Buffer).length;
  sawBytes = n;
}
async function load(t: Target, n: number, words = WORDS): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  const worker = async () => {
    while (next < n) {
      next++;
      await one(t, words);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  return performance.now() - t0;
}

async function metricsText(url: string): Promise<string> {
  return (await request(`${url}/metrics`)).body.text();
}
const metric = (text: string, prefix: string) =>
  text
    .split("\n")
    .filter((l) => l.startsWith(prefix))
    .reduce((s, l) => s + Number(l.slice(l.lastIndexOf(" ") + 1)), 0);
async function ledgerCaughtUp(): Promise<void> {
  const m = await metricsText(gw);
  const want = metric(m, 'gateway_usage_events_total{result="acked"') + metric(m, 'gateway_usage_events_total{result="spooled"');
  for (let i = 0; i < 300 && metric(await metricsText(`http://127.0.0.1:${ledgerOpsPort}`), 'ledger_usage_events_total{result="applied"') < want; i++) await new Promise((r) => setTimeout(r, 100));
}

step("warming up");
const bytes: Record<string, number> = {};
for (const t of targets) {
  await load(t, Math.max(200, STREAMS / 2));
  bytes[t.name] = sawBytes;
}
await ledgerCaughtUp();

/** Write system calls of a process so far (/proc/<pid>/io syscw: write and writev, sockets included). */
function writes(pid: number): number {
  try {
    return Number(/^syscw: (\d+)/m.exec(readFileSync(`/proc/${pid}/io`, "utf8"))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

const others = { "control-plane": control.pid!, ledger: ledger.pid!, nats: nats.pid, postgres: pg.pid };
const cpu: Record<string, number[]> = {};
const short: Record<string, number[]> = {};
const system: Record<string, number[]> = {};
const rate: Record<string, number[]> = {};
const syscw: Record<string, number[]> = {};
/** What the fake upstream and this process (the load generator) spend per stream of each target: the same for every target unless its requests differ. */
const upstreamCpu: Record<string, number[]> = {};
const clientCpu: Record<string, number[]> = {};
const ratio: Record<string, number[]> = {};
const chunkRatio: Record<string, number[]> = {};
console.log(
  `streams: ${STREAMS} per target per round × ${ROUNDS} alternating rounds, ${WORDS} one-word chunks each (usage in the last)${CHUNK_DELAY_MS ? `, one every ${CHUNK_DELAY_MS} ms` : ", written at once"}, and as many of ${SHORT} chunks (CPU per chunk: the slope between the two), concurrency ${CONCURRENCY}, loopback, fake upstream, every component its own process (data-plane flags: ${DEPLOY_NODE_FLAGS.join(" ") || "none"}); ${availableParallelism()} cores`,
);
const slope = (long: number, shortStream: number) => (long - shortStream) / (WORDS - SHORT);
for (let round = 0; round < ROUNDS; round++) {
  const bareOf: Partial<Record<Wire, { stream: number; chunk: number }>> = {};
  for (const t of targets) {
    const before = cpuMicros(t.pid);
    const writesBefore = writes(t.pid);
    const fakeBefore = cpuMicros(fake.pid!);
    const clientBefore = process.cpuUsage();
    const beforeOthers = Object.fromEntries(Object.entries(others).map(([k, p]) => [k, treeCpu(p)]));
    const ms = await load(t, STREAMS);
    const perStream = (cpuMicros(t.pid) - before) / STREAMS;
    (upstreamCpu[t.name] ??= []).push((cpuMicros(fake.pid!) - fakeBefore) / STREAMS);
    const client = process.cpuUsage(clientBefore);
    (clientCpu[t.name] ??= []).push((client.user + client.system) / STREAMS);
    (syscw[t.name] ??= []).push((writes(t.pid) - writesBefore) / STREAMS);
    (cpu[t.name] ??= []).push(perStream);
    (rate[t.name] ??= []).push(STREAMS / (ms / 1000));
    if (t.gateway) {
      await ledgerCaughtUp();
      const rest = Object.entries(others).reduce((s, [k, p]) => s + treeDelta(beforeOthers[k]!, treeCpu(p)), 0) / STREAMS;
      (system[t.name] ??= []).push(perStream + rest);
    }
    // A profiled run streams only the long ones (its profile divides evenly by stream): no slope.
    const beforeShort = cpuMicros(t.pid);
    if (!PROFILED) await load(t, STREAMS, SHORT);
    const perShort = PROFILED ? NaN : (cpuMicros(t.pid) - beforeShort) / STREAMS;
    // The next run starts with the ledger idle: applying these streams' usage events beside it
    // would take cores from whichever proxy runs next (the rounds' spread was mostly that).
    if (t.gateway) await ledgerCaughtUp();
    (short[t.name] ??= []).push(perShort);
    const perChunk = slope(perStream, perShort);
    if (t.name.startsWith("bare")) bareOf[t.wire] = { stream: perStream, chunk: perChunk };
    else if (bareOf[t.upstream]) {
      (ratio[t.name] ??= []).push(perStream / bareOf[t.upstream]!.stream);
      (chunkRatio[t.name] ??= []).push(perChunk / bareOf[t.upstream]!.chunk);
    }
  }
}

const med = (xs: number[] | undefined) => (xs?.length ? pct(xs, 50) : NaN);
const range = (xs: number[], f = (x: number) => x.toFixed(0)) => `${f(Math.min(...xs))}–${f(Math.max(...xs))}`;
const byRound = (xs: number[]) => xs.map((r) => r.toFixed(2)).join(", ");
const summary: Record<string, unknown> = {};
/** A gateway target's streams/s over Portkey's in the same round (the issue's relative target), by round. */
const peer = rate["portkey chat"];
const overPortkey = (name: string) => (peer && name !== "portkey chat" && !name.startsWith("bare") ? rate[name]!.map((r, i) => r / peer[i]!) : undefined);
for (const t of targets) {
  const c = cpu[t.name]!;
  const chunks = c.map((x, i) => slope(x, short[t.name]![i]!));
  const line = [
    `${t.name.padEnd(26)} ${med(rate[t.name]).toFixed(0).padStart(5)} streams/s (${range(rate[t.name]!)})`,
    `cpu/stream ${med(c).toFixed(0).padStart(5)} µs (${range(c)}; ${med(short[t.name]).toFixed(0)} at ${SHORT} chunks)`,
    `per chunk ${med(chunks).toFixed(2)} µs (${range(chunks, (x) => x.toFixed(2))})`,
    ratio[t.name] ? `× bare: per stream ${med(ratio[t.name]).toFixed(2)} (${byRound(ratio[t.name]!)}), per chunk ${med(chunkRatio[t.name]).toFixed(2)} (${byRound(chunkRatio[t.name]!)})` : "",
    system[t.name] ? `with control-plane, ledger, NATS, Postgres ${med(system[t.name]).toFixed(0)} µs/stream` : "",
    overPortkey(t.name) ? `× Portkey streams/s ${med(overPortkey(t.name)).toFixed(2)} (${byRound(overPortkey(t.name)!)})` : "",
    `${med(syscw[t.name]).toFixed(1)} writes/stream`,
    `upstream ${med(upstreamCpu[t.name]).toFixed(0)} µs/stream, load generator ${med(clientCpu[t.name]).toFixed(0)}`,
    `${bytes[t.name]} bytes/stream`,
  ];
  console.log(line.filter(Boolean).join("   "));
  summary[t.name] = {
    streams_per_s: Math.round(med(rate[t.name])),
    cpu_us_per_stream: Math.round(med(c)),
    cpu_us_per_short_stream: Math.round(med(short[t.name])),
    cpu_us_per_chunk: r2(med(chunks)),
    write_calls_per_stream: r2(med(syscw[t.name])),
    upstream_cpu_us_per_stream: Math.round(med(upstreamCpu[t.name])),
    load_generator_cpu_us_per_stream: Math.round(med(clientCpu[t.name])),
    ...(ratio[t.name] ? { ratio_vs_bare: r2(med(ratio[t.name])), ratio_by_round: ratio[t.name]!.map(r2) } : {}),
    ...(chunkRatio[t.name] ? { chunk_ratio_vs_bare: r2(med(chunkRatio[t.name])), chunk_ratio_by_round: chunkRatio[t.name]!.map(r2) } : {}),
    ...(system[t.name] ? { cpu_us_per_stream_whole_system: Math.round(med(system[t.name])) } : {}),
    ...(overPortkey(t.name) ? { streams_per_s_vs_portkey: r2(med(overPortkey(t.name))), streams_per_s_vs_portkey_by_round: overPortkey(t.name)!.map(r2) } : {}),
  };
}
const rss = { gateway: Math.round(memory(dp.pid!).rss), bare: Math.round(memory(bare.pid!).rss), ...(portkey ? { portkey: Math.round(memory(portkey.pid!).rss) } : {}) };
console.log(
  `RSS after the run: ${Object.entries(rss)
    .map(([k, v]) => `${k} ${v} MiB`)
    .join(", ")}`,
);
console.log(
  JSON.stringify({
    bench: "stream-cpu",
    date: new Date().toISOString().slice(0, 10),
    commit: gitCommit(),
    streams: STREAMS,
    words: WORDS,
    concurrency: CONCURRENCY,
    rounds: ROUNDS,
    chunk_delay_ms: CHUNK_DELAY_MS,
    targets: summary,
    rss_mib: rss,
  }),
);

for (const c of [...children].reverse()) await stopChild(c);
await nats.stop();
await pg.stop();
await agent.close();
rmSync(spool, { recursive: true, force: true });
process.exit(0);
