/**
 * Console read benchmark (issue 25, item 5): the ledger's console reads on a big ledger. Seeds N
 * usage records (default 10 million) over 1,000 organizations straight into Postgres — one
 * organization holds a tenth of them, the rest share the others — over the last 90 days, with
 * the rollup trigger maintaining usage_rollups as the ledger's own inserts do; then times each read
 * through the ledger's gRPC API, as the console calls it, and reports p50/p95 per call:
 *
 * - SpendSeries: 7 days by hour per model, 90 days by day per key (the overview's charts);
 * - ListUsage: the newest page, a page filtered by key and model, a page 100 pages deep (by cursor),
 *   and a page filtered by status (a filter that skips most rows).
 *
 * Each on the biggest organization and on a random small one. Bounded: N rows, 200 calls per read.
 *
 *   make build && node bench/console-queries.ts [records=10000000] [calls=200]
 */
import pg from "pg";
import { createClient, ledgerService } from "@gateway/proto";
import { createDatabase, startNats, startPostgres } from "@gateway/testing";
import { ledgerEnv, pct, spawnNode, step, stopChild, waitReady } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 10_000_000);
const CALLS = Number(process.argv[3] ?? 200);
const ORGS = 1_000;
const DAYS = 90;
const TOKEN = "bench-console-admin-token-0123";

step("starting Postgres and NATS");
const pgServer = await startPostgres({});
const nats = await startNats();
const dbUrl = await createDatabase(pgServer.url, "console_bench");
const env = await ledgerEnv(dbUrl, nats.url, TOKEN);
const ledger = spawnNode("apps/ledger/dist/main.js", env);
await waitReady(Number(env.LEDGER_OPS_PORT));

const db = new pg.Client({ connectionString: dbUrl });
await db.connect();
const now = Date.now();
const CHUNK = 1_000_000;
const seedStart = performance.now();
for (let from = 0; from < N; from += CHUNK) {
  const to = Math.min(N, from + CHUNK);
  step(`seeding records ${from}–${to}`);
  // Every tenth record is org_big's; keys key_0–key_6 and models m0–m4 in every organization; 1 in 97 a 499.
  await db.query(
    `INSERT INTO ledger.usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
       cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, created_at, attempt_outcome, attempt_ms)
     SELECT 'req_' || lpad(g::text, 10, '0'),
       CASE WHEN g % 10 = 0 THEN 'org_big' ELSE 'org_' || (g % ${ORGS - 1}) END,
       'key_' || ((g / 10) % 7), 'm' || ((g / 70) % 5), CASE WHEN g % 4 = 0 THEN 'messages' ELSE 'chat' END, 'fake', 'fake-chat', '',
       50 + g % 200, 20 + g % 300, g % 17, false, 1 + g % 50, 150000, 600000, g % 2 = 0, CASE WHEN g % 97 = 0 THEN 499 ELSE 200 END, 100 + g % 900,
       to_timestamp(${now / 1000} - (g::bigint * ${DAYS * 86_400}::bigint / ${N}::bigint)), 'served', 100
     FROM generate_series(${from}, ${to - 1}) AS g`,
  );
}
const seedS = (performance.now() - seedStart) / 1000;
step("analyzing");
await db.query("ANALYZE ledger.usage_records; ANALYZE ledger.usage_rollups");
const sizes = await db.query<{ records: string; rollups: string; big: string }>(
  "SELECT (SELECT count(*) FROM ledger.usage_records) AS records, (SELECT count(*) FROM ledger.usage_rollups) AS rollups, (SELECT count(*) FROM ledger.usage_records WHERE org_id = 'org_big') AS big",
);
await db.end();

const client = createClient(ledgerService(), `127.0.0.1:${env.LEDGER_GRPC_PORT}`, { timeoutMs: 30_000, metadata: { authorization: `Bearer ${TOKEN}` } });
const DAY = 86_400_000;
const hourAligned = Math.floor(now / 3_600_000) * 3_600_000 + 3_600_000;
const list = { key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: 50, cursor: "" };

async function deepCursor(org: string): Promise<string> {
  let cursor = "";
  for (let i = 0; i < 100; i++) cursor = (await client.ListUsage({ ...list, org_id: org, cursor })).next_cursor;
  return cursor;
}

const results: Record<string, { p50: number; p95: number; rows: number }> = {};
for (const [who, orgFor] of [
  ["big org", () => "org_big"],
  ["small org", () => `org_${Math.floor(Math.random() * (ORGS - 1))}`],
] as const) {
  const deep = await deepCursor(orgFor());
  const reads: Array<[string, () => Promise<number>]> = [
    [
      "SpendSeries 7 d by hour per model",
      async () => (await client.SpendSeries({ org_id: orgFor(), from_ms: hourAligned - 7 * DAY, to_ms: hourAligned, bucket: "hour", group_by: "model" })).points.length,
    ],
    [
      "SpendSeries 90 d by day per key",
      async () => (await client.SpendSeries({ org_id: orgFor(), from_ms: hourAligned - 90 * DAY, to_ms: hourAligned, bucket: "day", group_by: "key" })).points.length,
    ],
    ["ListUsage newest page", async () => (await client.ListUsage({ ...list, org_id: orgFor() })).records.length],
    ["ListUsage key + model filter", async () => (await client.ListUsage({ ...list, org_id: orgFor(), key_id: "key_3", model: "m2" })).records.length],
    ["ListUsage status 499 filter", async () => (await client.ListUsage({ ...list, org_id: orgFor(), status: 499 })).records.length],
    // A key that never made a request (just created, say): the filter matches nothing.
    ["ListUsage unused key", async () => (await client.ListUsage({ ...list, org_id: orgFor(), key_id: "key_unused" })).records.length],
    ["ListUsage page 101 (cursor)", async () => (await client.ListUsage({ ...list, org_id: who === "big org" ? "org_big" : orgFor(), cursor: who === "big org" ? deep : "" })).records.length],
  ];
  for (const [name, read] of reads) {
    const times: number[] = [];
    let rows = 0;
    for (let i = 0; i < CALLS; i++) {
      const t = performance.now();
      rows = await read();
      times.push(performance.now() - t);
    }
    times.sort((a, b) => a - b);
    results[`${name} (${who})`] = { p50: pct(times, 50), p95: pct(times, 95), rows };
  }
}
client.close();

console.log(`console reads on ${sizes.rows[0]!.records} usage records (${sizes.rows[0]!.big} in the biggest organization), ${sizes.rows[0]!.rollups} rollup rows; seeded in ${seedS.toFixed(0)} s`);
for (const [name, r] of Object.entries(results)) console.log(`  ${name.padEnd(56)} p50 ${r.p50.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms  (${r.rows} rows)`);
console.log(JSON.stringify({ bench: "console-queries", date: new Date().toISOString().slice(0, 10), records: Number(sizes.rows[0]!.records), results }));

await stopChild(ledger);
await nats.stop();
await pgServer.stop();
