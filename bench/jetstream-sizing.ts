/**
 * Sizing benchmark: what one request leaves behind in JetStream and in Postgres, and what one
 * data-plane replica serves per core. Drives `requests` chat completions (a fifth of them streamed)
 * through the whole stack (bench/bench-stack.ts) at `concurrency`, waits until the ledger has applied
 * every usage event, then reads the USAGE and LEDGER streams' bytes and the ledger tables' sizes.
 * Ends with one JSON line (`{"bench":"jetstream-sizing",…}`); docs/performance.md turns it into
 * storage per million requests and per day. Then a tenth as many requests refused before routing
 * (an unknown model, 404), every one recorded (the per-key cap raised for the run): the bytes a
 * refusal record leaves in USAGE and in Postgres (docs/billing.md, "Refusal records").
 * Bounded: a fixed request count on loopback.
 *
 *   make build && node bench/jetstream-sizing.ts [requests=20000] [concurrency=16]
 */
import { Agent, request } from "undici";
import pg from "pg";
import { connect } from "@nats-io/transport-node";
import { jetstreamManager } from "@nats-io/jetstream";
import { LEDGER_STREAM, USAGE_STREAM } from "@gateway/events";
import { cpuMicros, gitCommit, sleep } from "../scripts/lib/bench.ts";
import { startBenchStack } from "./bench-stack.ts";
import { pending, step } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 20_000);
const CONCURRENCY = Number(process.argv[3] ?? 16);

// Every refusal recorded: the bytes of a record, not the per-key cap, are measured.
const stack = await startBenchStack("jetstream_sizing", { DATA_PLANE_REFUSAL_RECORDS_PER_S: "1000000", DATA_PLANE_REFUSAL_RECORDS_BURST: "1000000" });
const base = `http://127.0.0.1:${stack.dpPort}/v1`;
const agent = new Agent({ connections: CONCURRENCY * 2, keepAliveTimeout: 30_000 });
const nc = await connect({ servers: stack.natsUrl });
const jsm = await jetstreamManager(nc);
const db = new pg.Client({ connectionString: stack.dbUrl });
await db.connect();

/** Bytes of every ledger table with its indexes and TOAST, by table. */
async function ledgerTables(): Promise<Map<string, number>> {
  const r = await db.query<{ name: string; bytes: string }>(
    `SELECT c.relname AS name, pg_total_relation_size(c.oid) AS bytes FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'ledger' AND c.relkind IN ('r', 'p')`,
  );
  return new Map(r.rows.map((x) => [x.name, Number(x.bytes)]));
}

const streamState = async (name: string) => (await jsm.streams.info(name)).state;

async function one(i: number): Promise<void> {
  const stream = i % 5 === 0;
  const body = JSON.stringify({
    model: "gw-chat-mini",
    stream,
    messages: [
      { role: "system", content: "You are a helpful assistant." },
      { role: "user", content: `Summarise request ${i} in one sentence, please.` },
    ],
  });
  const r = await request(`${base}/chat/completions`, { method: "POST", dispatcher: agent, headers: { authorization: `Bearer ${stack.secret}`, "content-type": "application/json" }, body });
  await r.body.text();
  if (r.statusCode !== 200) throw new Error(`request ${i}: HTTP ${r.statusCode}`);
}

// Warm-up (JIT, caches, leases), then the measured run from empty tables' baseline.
for (let i = 0; i < 200; i++) await one(i);
while ((await pending(jsm)).pending > 0) await sleep(100);
const tablesBefore = await ledgerTables();
const [usageBefore, ledgerBefore] = [await streamState(USAGE_STREAM), await streamState(LEDGER_STREAM)];
const cpuBefore = cpuMicros(stack.dp.pid!);
const started = performance.now();
let next = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (next < N) await one(next++);
  }),
);
const seconds = (performance.now() - started) / 1000;
const dpCpuUs = cpuMicros(stack.dp.pid!) - cpuBefore;
step(`${N} requests in ${seconds.toFixed(1)} s; waiting for the ledger`);
while ((await pending(jsm)).pending > 0) await sleep(200);
// The journal is published by the ledger's outbox a moment after the batch commits.
await sleep(2_000);
const [usage, ledger] = [await streamState(USAGE_STREAM), await streamState(LEDGER_STREAM)];
const tablesAfter = await ledgerTables();

const perRequest = (after: number, before: number) => Math.round(((after - before) / N) * 10) / 10;
const tables: Record<string, number> = {};
for (const [name, bytes] of tablesAfter) {
  const d = perRequest(bytes, tablesBefore.get(name) ?? 0);
  if (d > 0) tables[name] = d;
}
const pgPerRequest = Object.values(tables).reduce((a, b) => a + b, 0);
const usagePerRequest = perRequest(usage.bytes, usageBefore.bytes);
const ledgerPerRequest = perRequest(ledger.bytes, ledgerBefore.bytes);
// Refused before routing: one record each, alone on usage.v1.refused.
const REFUSED = Math.max(1, Math.round(N / 10));
const refusedBody = JSON.stringify({ model: "gw-no-such-model", messages: [{ role: "user", content: "Summarise this request in one sentence, please." }] });
const [usageBeforeRefusals, tablesBeforeRefusals] = [usage, tablesAfter];
let refusedNext = 0;
await Promise.all(
  Array.from({ length: CONCURRENCY }, async () => {
    while (refusedNext < REFUSED) {
      refusedNext++;
      const r = await request(`${base}/chat/completions`, {
        method: "POST",
        dispatcher: agent,
        headers: { authorization: `Bearer ${stack.secret}`, "content-type": "application/json" },
        body: refusedBody,
      });
      await r.body.text();
      if (r.statusCode !== 404) throw new Error(`refused request: HTTP ${r.statusCode}`);
    }
  }),
);
while ((await pending(jsm)).pending > 0) await sleep(200);
const usageAfterRefusals = await streamState(USAGE_STREAM);
const tablesAfterRefusals = await ledgerTables();
const perRefusal = (after: number, before: number) => Math.round(((after - before) / REFUSED) * 10) / 10;
const refusalTables: Record<string, number> = {};
for (const [name, bytes] of tablesAfterRefusals) {
  const d = perRefusal(bytes, tablesBeforeRefusals.get(name) ?? 0);
  if (d > 0) refusalTables[name] = d;
}

const result = {
  bench: "jetstream-sizing",
  commit: gitCommit(),
  date: new Date().toISOString().slice(0, 10),
  requests: N,
  concurrency: CONCURRENCY,
  requests_per_s: Math.round(N / seconds),
  data_plane_cpu_us_per_request: Math.round(dpCpuUs / N),
  /** One data-plane process on one core, from its CPU per request. */
  data_plane_requests_per_core_s: Math.round(1e6 / (dpCpuUs / N)),
  usage_stream: { bytes_per_request: usagePerRequest, messages_per_request: Math.round(((usage.messages - usageBefore.messages) / N) * 1000) / 1000 },
  ledger_stream: { bytes_per_request: ledgerPerRequest, messages_per_request: Math.round(((ledger.messages - ledgerBefore.messages) / N) * 1000) / 1000 },
  postgres: { bytes_per_request: Math.round(pgPerRequest * 10) / 10, tables },
  refusal_records: {
    refused: REFUSED,
    usage_stream: {
      bytes_per_refusal: perRefusal(usageAfterRefusals.bytes, usageBeforeRefusals.bytes),
      messages_per_refusal: Math.round(((usageAfterRefusals.messages - usageBeforeRefusals.messages) / REFUSED) * 1000) / 1000,
    },
    postgres: { bytes_per_refusal: Math.round(Object.values(refusalTables).reduce((a, b) => a + b, 0) * 10) / 10, tables: refusalTables },
  },
};
console.log(JSON.stringify(result));
await db.end();
await nc.close();
process.exit(0);
