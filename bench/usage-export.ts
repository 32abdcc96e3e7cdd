/**
 * Usage export benchmark: `gatewayctl usage export` of one organization's N usage records (inserted
 * straight into the ledger's table), read by a consumer that pauses for a few seconds half-way
 * (backpressure: a stalled reader must not make anyone buffer the export). Reports records/s and
 * the peak resident memory of gatewayctl and of the ledger, the numbers that must not grow with N.
 * With heap_mib, both run with that V8 old-space limit: an export that needed memory in proportion
 * to N would die of it; RSS alone is mostly garbage V8 has not collected yet.
 *
 *   make build && node bench/usage-export.ts [records=1000000] [format=csv] [pause_s=3] [heap_mib=0]
 */
import { spawn } from "node:child_process";
import pg from "pg";
import { adminService, createClient } from "@gateway/proto";
import { createDatabase, freePort, startNats, startPostgres } from "@gateway/testing";
import { gitCommit, memory } from "../scripts/lib/bench.ts";
import { ledgerEnv, root, sleep, spawnNode, step, stopChild, waitReady } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 1_000_000);
const FORMAT = process.argv[3] ?? "csv";
const PAUSE_S = Number(process.argv[4] ?? 3);
const HEAP_MIB = Number(process.argv[5] ?? 0);
const heapOptions: Record<string, string> = HEAP_MIB > 0 ? { NODE_OPTIONS: `${process.env.NODE_OPTIONS ?? ""} --max-old-space-size=${HEAP_MIB}` } : {};
const TOKEN = "bench-export-admin-token-0123";

step("starting Postgres and NATS");
const pgServer = await startPostgres({ durable: false });
const nats = await startNats();
const dbUrl = await createDatabase(pgServer.url, "export_bench");
const ledgerEnvironment = await ledgerEnv(dbUrl, nats.url, TOKEN, heapOptions);
const controlEnv = {
  CONTROL_PLANE_DATABASE_URL: dbUrl,
  CONTROL_PLANE_MIGRATE_ON_START: "true",
  CONTROL_PLANE_NATS_URL: nats.url,
  CONTROL_PLANE_GRPC_PORT: String(await freePort()),
  CONTROL_PLANE_OPS_PORT: String(await freePort()),
  CONTROL_PLANE_ADMIN_TOKEN: TOKEN,
  CONTROL_PLANE_LOG_LEVEL: "warn",
};
const ledger = spawnNode("apps/ledger/dist/main.js", ledgerEnvironment);
const control = spawnNode("apps/control-plane/dist/main.js", controlEnv);
await waitReady(Number(ledgerEnvironment.LEDGER_OPS_PORT));
await waitReady(Number(controlEnv.CONTROL_PLANE_OPS_PORT));
const admin = createClient(adminService(), `127.0.0.1:${controlEnv.CONTROL_PLANE_GRPC_PORT}`, { timeoutMs: 10_000, metadata: { authorization: `Bearer ${TOKEN}` } });
const org = await admin.CreateOrg({ name: "export-bench" });
admin.close();

step(`inserting ${N} usage records`);
const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
for (let i = 0; i < N; i += 200_000) {
  await db.query(
    `INSERT INTO ledger.usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
       cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, line_items, created_at, journal_txn_id)
     SELECT 'req_bench_' || i, $1, 'key_bench', 'gw-chat-mini', 'chat', 'fake', 'fake-chat', 'lease_bench', 200 + i % 900, 50 + i % 400, 0, false,
       ceil(((200 + i % 900) * 150000 + (50 + i % 400) * 600000) / 1000000.0)::bigint, 150000, 600000, i % 4 = 0, 200, 100 + i % 50,
       jsonb_build_array(
         jsonb_build_object('item', 'input_tokens', 'quantity', 200 + i % 900, 'unit_price_minor', 150000, 'per', '1M tokens'),
         jsonb_build_object('item', 'output_tokens', 'quantity', 50 + i % 400, 'unit_price_minor', 600000, 'per', '1M tokens')),
       timestamptz '2026-01-01T00:00:00Z' + (i / 3) * interval '1 millisecond', 'post_bench_' || (i / 500)
     FROM generate_series($2::int, $3::int) AS i`,
    [org.id, i, Math.min(N, i + 200_000) - 1],
  );
}
await db.query("ANALYZE ledger.usage_records");
const plan = await db.query<{ "QUERY PLAN": string }>(
  `EXPLAIN ANALYZE SELECT * FROM ledger.usage_records WHERE org_id = $1 AND created_at >= $2 AND created_at < $3
     AND created_at >= $4::timestamptz AND (created_at > $4::timestamptz OR request_id > $5) ORDER BY created_at, request_id LIMIT 1000`,
  // A cursor half-way through the records: what a page in the middle of the export costs.
  [org.id, "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", new Date(Date.parse("2026-01-01T00:00:00Z") + Math.floor(N / 6)).toISOString(), "req_bench_x"],
);
await db.end();
step(`a page's plan, half-way:\n${plan.rows.map((r) => `    ${r["QUERY PLAN"]}`).join("\n")}`);

step(`exporting as ${FORMAT}; the reader pauses ${PAUSE_S} s half-way`);
const ledgerBefore = memory(ledger.pid!);
const ctl = spawn(`${root}/bin/gatewayctl`, ["usage", "export", "--org", org.id, "--from", "2026-01-01", "--to", "2026-02-01", "--format", FORMAT], {
  env: {
    ...process.env,
    GATEWAY_ADMIN_TOKEN: TOKEN,
    GATEWAY_CONTROL_PLANE_ADDR: `127.0.0.1:${controlEnv.CONTROL_PLANE_GRPC_PORT}`,
    GATEWAY_LEDGER_ADDR: `127.0.0.1:${ledgerEnvironment.LEDGER_GRPC_PORT}`,
    ...heapOptions,
  },
  stdio: ["ignore", "pipe", "inherit"],
});
let bytes = 0;
let lines = 0;
let paused = false;
let ctlPeak = 0;
let ledgerPeak = ledgerBefore.rss;
// bin/gatewayctl execs node, so the pid is gatewayctl's own.
const sampler = setInterval(() => {
  try {
    ctlPeak = Math.max(ctlPeak, memory(ctl.pid!).rss);
    ledgerPeak = Math.max(ledgerPeak, memory(ledger.pid!).rss);
  } catch {
    // exited meanwhile
  }
}, 50);
const t0 = performance.now();
ctl.stdout.on("data", (chunk: Buffer) => {
  bytes += chunk.length;
  for (let i = chunk.indexOf(10); i >= 0; i = chunk.indexOf(10, i + 1)) lines++;
  if (!paused && lines > N / 2 && PAUSE_S > 0) {
    paused = true;
    ctl.stdout.pause();
    setTimeout(() => ctl.stdout.resume(), PAUSE_S * 1_000);
  }
});
const code = await new Promise<number | null>((r) => ctl.on("exit", (c) => r(c)));
const seconds = (performance.now() - t0) / 1000 - (paused ? PAUSE_S : 0);
clearInterval(sampler);
const records = lines - (FORMAT === "csv" ? 1 : 0);
console.log(
  `usage export: ${records}/${N} records (${(bytes / 2 ** 20).toFixed(0)} MiB of ${FORMAT}) in ${seconds.toFixed(1)} s without the pause: ${Math.round(records / seconds)} records/s; exit ${code}`,
);
console.log(`  peak RSS: gatewayctl ${ctlPeak.toFixed(0)} MiB, ledger ${ledgerPeak.toFixed(0)} MiB (${ledgerBefore.rss.toFixed(0)} MiB before)`);
console.log(
  JSON.stringify({
    bench: "usage-export",
    date: new Date().toISOString().slice(0, 10),
    commit: gitCommit(),
    records,
    format: FORMAT,
    mib: Math.round(bytes / 2 ** 20),
    records_per_s: Math.round(records / seconds),
    pause_s: PAUSE_S,
    heap_limit_mib: HEAP_MIB || null,
    rss_peak_mib: { gatewayctl: Math.round(ctlPeak), ledger: Math.round(ledgerPeak), ledger_before: Math.round(ledgerBefore.rss) },
  }),
);

await sleep(100);
await stopChild(ledger);
await stopChild(control);
await nats.stop();
await pgServer.stop();
