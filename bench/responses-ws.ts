/**
 * Responses over WebSocket against Responses over HTTP: the data-plane's CPU per turn. The same
 * streamed `/v1/responses` request (`store: false`, as Codex sends it) runs as a `POST` (keep-alive
 * connections) and as a `response.create` turn on open WebSocket connections (the Responses API's
 * WebSocket mode), in alternating rounds on the same fake upstream, natively to an OpenAI deployment
 * (gw-gpt) and translated to an Anthropic one (gw-claude). Every component runs as its own process
 * (fake upstream, control-plane, ledger, data-plane, nats-server, Postgres), so /proc gives the
 * data-plane's CPU alone.
 *
 *   make build && node bench/responses-ws.ts [turns=1000] [words=50] [concurrency=16] [rounds=3]
 *
 * Reports, per target, turns/s and the data-plane's CPU per turn (median of the rounds, and its
 * range), and the WebSocket turn's CPU over the HTTP request's by round. Ends with one JSON line
 * (`{"bench":"responses-ws",…}`). Bounded: fixed counts on loopback; ends only what it started.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { Agent, request } from "undici";
import WebSocket from "ws";
import { createDatabase, freePort, startNats, startPostgres, waitForPort } from "@gateway/testing";
import { FAKE_UPSTREAM_API_KEY } from "../scripts/lib/demo-catalog.ts";
import { seedDemo } from "../scripts/lib/seed.ts";
import { DEPLOY_NODE_FLAGS } from "./deploy-flags.ts";
import { cpuMicros, gitCommit, pct, root, serviceEnv, stopChild } from "../scripts/lib/bench.ts";

const TURNS = Number(process.argv[2] ?? 1000);
const WORDS = Number(process.argv[3] ?? 50);
const CONCURRENCY = Number(process.argv[4] ?? 16);
const ROUNDS = Number(process.argv[5] ?? 3);
const DEADLINE_MS = 15 * 60_000;
const step = (m: string) => process.stderr.write(`[bench] ${m}\n`);

const children: ChildProcess[] = [];
setTimeout(() => {
  step("deadline reached; stopping");
  process.exit(2);
}, DEADLINE_MS).unref();

function spawnNode(script: string, env: Record<string, string>): ChildProcess {
  const flags = script === "apps/data-plane/dist/main.js" ? DEPLOY_NODE_FLAGS : [];
  const c = spawn(process.execPath, [...flags, script], { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "ignore", "inherit"] });
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
const db = await createDatabase(pg.url, "bench_responses_ws");
const token = "bench-admin-token-0123456789";
const dpToken = "bench-data-plane-token-0123456789";
const [fakePort, controlPort, ledgerPort, ledgerOpsPort, dpPort] = (await Promise.all(Array.from({ length: 5 }, () => freePort()))) as [number, number, number, number, number];
const fakeUrl = `http://127.0.0.1:${fakePort}`;
const quiet = process.env.BENCH_LOG_LEVEL ?? "warn";
const services = serviceEnv({ db, natsUrl: nats.url, controlPort, ledgerPort, ledgerOpsPort, adminToken: token, dpToken, logLevel: quiet });
spawnNode("packages/fake-upstream/dist/main.js", { FAKE_UPSTREAM_PORT: String(fakePort), FAKE_UPSTREAM_API_KEY });
spawnNode("apps/control-plane/dist/main.js", services.control);
spawnNode("apps/ledger/dist/main.js", services.ledger);
await Promise.all([waitForPort(fakePort, 30_000), waitForPort(controlPort, 30_000), waitForPort(ledgerPort, 30_000)]);
const seeded = await seedDemo({
  controlPlaneAddr: `127.0.0.1:${controlPort}`,
  ledgerAddr: `127.0.0.1:${ledgerPort}`,
  adminToken: token,
  fakeUpstreamUrl: fakeUrl,
  orgName: "bench",
  topUpMinor: 1_000_000_000_000,
});
step("seeded; starting the data-plane");
const spool = mkdtempSync(join(tmpdir(), "bench-responses-ws-spool-"));
const dp = spawnNode("apps/data-plane/dist/main.js", {
  ...services.dataPlane,
  DATA_PLANE_PORT: String(dpPort),
  DATA_PLANE_LOG_LEVEL: quiet,
  DATA_PLANE_SPOOL_DIR: spool,
  DATA_PLANE_PROVIDER_KEY_FAKE_UPSTREAM_API_KEY: FAKE_UPSTREAM_API_KEY,
  DATA_PLANE_WS_MAX_TURNS: String(TURNS * ROUNDS * 4),
  DATA_PLANE_WS_MAX_CONNECTIONS_PER_KEY: String(CONCURRENCY * 2),
});
await waitForPort(dpPort, 30_000);
const gw = `http://127.0.0.1:${dpPort}`;
const auth = { authorization: `Bearer ${seeded.secret}` };
for (let i = 0; i < 100; i++) {
  const j = (await (await request(`${gw}/v1/models`, { headers: auth })).body.json()) as { data?: unknown[] };
  if (j.data?.length) break;
  await new Promise((r) => setTimeout(r, 100));
}

const bodyOf = (model: string) => ({ model, store: false, input: `benchmark turn [[fake:words=${WORDS}]]`, max_output_tokens: WORDS + 16 });
const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000 });

/** One streamed POST /v1/responses, read to its end. */
async function httpTurn(model: string): Promise<void> {
  const r = await request(`${gw}/v1/responses`, {
    method: "POST",
    dispatcher: agent,
    headers: { ...auth, "content-type": "application/json" },
    body: JSON.stringify({ ...bodyOf(model), stream: true }),
  });
  if (r.statusCode !== 200) throw new Error(`http ${model}: status ${r.statusCode}: ${await r.body.text()}`);
  for await (const _chunk of r.body) void _chunk;
}

/** An open WebSocket connection that runs one turn at a time. */
class Socket {
  private done: (() => void) | undefined;
  private failed: ((e: Error) => void) | undefined;
  private readonly ws: WebSocket;
  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on("message", (d) => {
      const text = String(d);
      // The terminal events: the type is the event's first field.
      if (text.startsWith('{"type":"response.completed"') || text.startsWith('{"type":"response.incomplete"')) this.done?.();
      else if (text.startsWith('{"type":"error"') || text.startsWith('{"type":"response.failed"')) this.failed?.(new Error(text));
    });
  }
  static open(): Promise<Socket> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(`${gw.replace(/^http/, "ws")}/v1/responses`, { headers: auth, perMessageDeflate: false });
      ws.once("open", () => resolve(new Socket(ws)));
      ws.once("error", reject);
    });
  }
  turn(model: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.done = resolve;
      this.failed = reject;
      this.ws.send(JSON.stringify({ type: "response.create", ...bodyOf(model) }));
    });
  }
  close(): void {
    this.ws.close();
  }
}
const sockets = await Promise.all(Array.from({ length: CONCURRENCY }, () => Socket.open()));

interface Target {
  name: string;
  model: string;
  ws: boolean;
}
const targets: Target[] = [
  { name: "http gw-gpt (native)", model: "gw-gpt", ws: false },
  { name: "ws gw-gpt (native)", model: "gw-gpt", ws: true },
  { name: "http gw-claude (translated)", model: "gw-claude", ws: false },
  { name: "ws gw-claude (translated)", model: "gw-claude", ws: true },
];

async function load(t: Target, n: number): Promise<number> {
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async (_, i) => {
      while (next < n) {
        next++;
        if (t.ws) await sockets[i]!.turn(t.model);
        else await httpTurn(t.model);
      }
    }),
  );
  return performance.now() - t0;
}

step("warming up");
for (const t of targets) await load(t, Math.max(200, TURNS / 2));

const cpu: Record<string, number[]> = {};
const rate: Record<string, number[]> = {};
const ratio: Record<string, number[]> = {};
console.log(
  `turns: ${TURNS} per target per round × ${ROUNDS} alternating rounds, ${WORDS} one-word deltas each, concurrency ${CONCURRENCY} (keep-alive HTTP connections / open WebSockets), store: false, loopback, fake upstream, every component its own process (data-plane flags: ${DEPLOY_NODE_FLAGS.join(" ") || "none"}); ${availableParallelism()} cores`,
);
for (let round = 0; round < ROUNDS; round++) {
  const http: Record<string, number> = {};
  for (const t of targets) {
    const before = cpuMicros(dp.pid!);
    const ms = await load(t, TURNS);
    const perTurn = (cpuMicros(dp.pid!) - before) / TURNS;
    (cpu[t.name] ??= []).push(perTurn);
    (rate[t.name] ??= []).push(TURNS / (ms / 1000));
    if (!t.ws) http[t.model] = perTurn;
    else (ratio[t.name] ??= []).push(perTurn / http[t.model]!);
    // Let the usage events of this run be applied before the next one starts.
    await new Promise((r) => setTimeout(r, 1_000));
  }
}

const med = (xs: number[] | undefined) => (xs?.length ? pct(xs, 50) : NaN);
const r2 = (x: number) => Math.round(x * 100) / 100;
const summary: Record<string, unknown> = {};
for (const t of targets) {
  const c = cpu[t.name]!;
  console.log(
    [
      `${t.name.padEnd(28)} ${med(rate[t.name]).toFixed(0).padStart(5)} turns/s`,
      `cpu/turn ${med(c).toFixed(0).padStart(5)} µs (${Math.min(...c).toFixed(0)}–${Math.max(...c).toFixed(0)})`,
      ratio[t.name] ? `× http: ${r2(med(ratio[t.name]))} (${ratio[t.name]!.map((r) => r.toFixed(2)).join(", ")})` : "",
    ]
      .filter(Boolean)
      .join("   "),
  );
  summary[t.name] = {
    turns_per_s: Math.round(med(rate[t.name])),
    cpu_us_per_turn: Math.round(med(c)),
    cpu_us_by_round: c.map((x) => Math.round(x)),
    ...(ratio[t.name] ? { ratio_vs_http: r2(med(ratio[t.name])), ratio_by_round: ratio[t.name]!.map(r2) } : {}),
  };
}
console.log(
  JSON.stringify({ bench: "responses-ws", date: new Date().toISOString().slice(0, 10), commit: gitCommit(), turns: TURNS, words: WORDS, concurrency: CONCURRENCY, rounds: ROUNDS, targets: summary }),
);

for (const s of sockets) s.close();
for (const c of [...children].reverse()) await stopChild(c);
await nats.stop();
await pg.stop();
await agent.close();
rmSync(spool, { recursive: true, force: true });
process.exit(0);
