/**
 * Console read benchmark (issue 25, item 5): the ledger's console reads on a big ledger. Seeds N
 * usage records (default 10 million) over 1,000 organizations straight into Postgres — one
 * organization holds a tenth of them, the rest share the others — over the last 90 days, and sums
 * their hourly rollups as the ledger's apply function would have; then times each read
 * through the ledger's gRPC API, as the console calls it, and reports p50/p95 per call:
 *
 * - SpendSeries: 7 days by hour per model, 90 days by day per key (the overview's charts), 30 days by
 *   day per model of one key (a key's page); each point with its errors and latency histogram;
 * - ListUsage: the newest page, a page filtered by key and model, a page 100 pages deep (by cursor),
 *   and a page filtered by status (a filter that skips most rows).
 *
 * - GuardrailCounts: 7 days of one organization's rule outcomes (1 record in 20 carries some);
 * - OrgBalances: the operator's organization list (100 organizations, credits and 7 days' spend);
 * - ProviderHealth: every organization's attempts of the last hour (1 record in 50 carries a retry).
 *
 * Each organization-scoped read on the biggest organization and on a random small one. Then the
 * console itself (control-plane, console server, Debian's chromium): the biggest organization's
 * admin opens the overview (credits, burn rate, the charts of spend, requests, tokens, errors, p95
 * latency and cache hits by model and their totals), a key's page (the same charts of its usage over
 * 30 days by model, its 20 newest requests) and the request log,
 * and the time from navigation to the page drawn (`body[data-ready]`) is its time to interactive.
 * Bounded: N rows, `calls` calls per read, 20 loads of each page.
 *
 *   make build && node bench/console-queries.ts [records=10000000] [calls=200]
 */
import { randomBytes } from "node:crypto";
import pg from "pg";
import { chromium } from "playwright-core";
import { adminService, bearer, createClient, ledgerService } from "@gateway/proto";
import { createDatabase, freePort, startNats, startPostgres } from "@gateway/testing";
import { histogramOf, LATENCY_BOUNDS_SQL } from "@gateway/ledger";
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
const CONSOLE_TOKENS = { control: randomBytes(24).toString("base64url"), ledger: randomBytes(24).toString("base64url") };
const env = await ledgerEnv(dbUrl, nats.url, TOKEN, { LEDGER_CONSOLE_TOKEN: CONSOLE_TOKENS.ledger });
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
  // Every tenth record is org_big's; keys key_0–key_6 and models m0–m4 in every organization; 1 in 97 a 499, 1 in 89 a 502;
  // 1 in 20 carries guardrail outcomes; 1 in 50 a failed attempt before the served one (kept in the attempts array);
  // latencies from 5 ms to ~60 s, log-spread (the rollups' histogram uses every bucket).
  await db.query(
    `INSERT INTO ledger.usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
       cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, created_at, attempt_outcome, attempt_ms,
       guardrails, attempts)
     SELECT 'req_' || lpad(g::text, 10, '0'),
       CASE WHEN g % 10 = 0 THEN 'org_big' ELSE 'org_' || (g % ${ORGS - 1}) END,
       'key_' || ((g / 10) % 7), 'm' || ((g / 70) % 5), CASE WHEN g % 4 = 0 THEN 'messages' ELSE 'chat' END, 'fake', 'fake-chat', '',
       50 + g % 200, 20 + g % 300, g % 17, false, 1 + g % 50, 150000, 600000, g % 2 = 0, CASE WHEN g % 97 = 0 THEN 499 WHEN g % 89 = 0 THEN 502 ELSE 200 END, (5 * exp((g % 1009) / 1009.0 * 9.4))::int,
       to_timestamp(${now / 1000} - (g::bigint * ${DAYS * 86_400}::bigint / ${N}::bigint)),
       CASE WHEN g % 50 = 0 THEN NULL ELSE 'served' END, CASE WHEN g % 50 = 0 THEN NULL ELSE 100 END,
       CASE WHEN g % 20 = 0 THEN '[{"plugin":"pii","name":"no-pii","outcome":"masked"},{"plugin":"keywords","name":"no-secrets","outcome":"pass"}]'::jsonb ELSE '[]'::jsonb END,
       CASE WHEN g % 50 = 0 THEN '[{"provider":"fake","upstream_model":"fake-chat","outcome":"failed","status":500,"duration_ms":40},{"provider":"fake","upstream_model":"fake-chat","outcome":"served","status":200,"duration_ms":120}]'::jsonb ELSE '[]'::jsonb END
     FROM generate_series(${from}, ${to - 1}) AS g`,
  );
}
// The hourly rollups of what was seeded: the ledger's apply function writes them with each batch
// (a straight insert like this one does not), so they are summed here once, as that upsert would —
// errors and latency histograms too — a few days of records at a time (bounded memory at 10 million).
const ROLL_STEP_MS = 5 * 86_400_000;
for (let from = Math.floor((now - DAYS * 86_400_000) / 3_600_000) * 3_600_000 - 3_600_000; from <= now; from += ROLL_STEP_MS) {
  step(`rolling up ${new Date(from).toISOString().slice(0, 10)}`);
  await db.query(
    `INSERT INTO ledger.usage_rollups (org_id, hour, key_id, model, requests, input_tokens, output_tokens, cached_input_tokens, cache_creation_input_tokens, reasoning_tokens,
       cost_minor, absorbed_minor, errors, latency_counts)
     SELECT org_id, date_trunc('hour', created_at, 'UTC'), key_id, model, count(*), sum(input_tokens), sum(output_tokens), sum(cached_input_tokens),
       sum(cache_creation_input_tokens), sum(reasoning_tokens), sum(cost_minor), sum(absorbed_minor), count(*) FILTER (WHERE status NOT BETWEEN 200 AND 299),
       ${histogramOf("latency_bucket")}
     FROM (SELECT *, width_bucket(duration_ms, ${LATENCY_BOUNDS_SQL}) AS latency_bucket FROM ledger.usage_records
           WHERE created_at >= to_timestamp(${from / 1000}) AND created_at < to_timestamp(${(from + ROLL_STEP_MS) / 1000})) n
     GROUP BY 1, 2, 3, 4`,
  );
}
const seedS = (performance.now() - seedStart) / 1000;
// Every organization with usage has an account (the ledger opens it with its first hold or top-up).
await db.query("INSERT INTO ledger.accounts (org_id) SELECT DISTINCT org_id FROM ledger.usage_records ON CONFLICT DO NOTHING");
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
    [
      "SpendSeries 30 d by hour per key (the keys list), with latency",
      async () => (await client.SpendSeries({ org_id: orgFor(), from_ms: hourAligned - 30 * DAY, to_ms: hourAligned, bucket: "hour", group_by: "key" })).points.length,
    ],
    [
      "SpendSeries 30 d by hour per key (the keys list), without_latency",
      async () => (await client.SpendSeries({ org_id: orgFor(), from_ms: hourAligned - 30 * DAY, to_ms: hourAligned, bucket: "hour", group_by: "key", without_latency: true })).points.length,
    ],
    [
      "SpendSeries 30 d by day per model, one key",
      async () => (await client.SpendSeries({ org_id: orgFor(), from_ms: hourAligned - 30 * DAY, to_ms: hourAligned, bucket: "day", group_by: "model", key_id: "key_3" })).points.length,
    ],
    ["ListUsage newest page", async () => (await client.ListUsage({ ...list, org_id: orgFor() })).records.length],
    ["ListUsage key + model filter", async () => (await client.ListUsage({ ...list, org_id: orgFor(), key_id: "key_3", model: "m2" })).records.length],
    ["ListUsage status 499 filter", async () => (await client.ListUsage({ ...list, org_id: orgFor(), status: 499 })).records.length],
    // A key that never made a request (just created, say): the filter matches nothing.
    ["ListUsage unused key", async () => (await client.ListUsage({ ...list, org_id: orgFor(), key_id: "key_unused" })).records.length],
    ["ListUsage page 101 (cursor)", async () => (await client.ListUsage({ ...list, org_id: who === "big org" ? "org_big" : orgFor(), cursor: who === "big org" ? deep : "" })).records.length],
    ["GuardrailCounts 7 d", async () => (await client.GuardrailCounts({ org_id: orgFor(), from_ms: now - 7 * DAY, to_ms: now + 1 })).counts.length],
    ...(who === "big org"
      ? ([
          [
            "OrgBalances 100 orgs, 7 d spend",
            async () => (await client.OrgBalances({ org_ids: ["org_big", ...Array.from({ length: 99 }, (_, i) => `org_${(i * 7) % (ORGS - 1)}`)], from_ms: now - 7 * DAY })).orgs.length,
          ],
          ["ProviderHealth last hour (all orgs)", async () => (await client.ProviderHealth({ from_ms: now - 3_600_000, to_ms: now + 1 })).deployments.length],
        ] as Array<[string, () => Promise<number>]>)
      : []),
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

// The overview page in a real browser, as the biggest organization's admin.
step("starting the control-plane and the console");
const controlEnv = {
  CONTROL_PLANE_DATABASE_URL: dbUrl,
  CONTROL_PLANE_MIGRATE_ON_START: "true",
  CONTROL_PLANE_NATS_URL: nats.url,
  CONTROL_PLANE_GRPC_PORT: String(await freePort()),
  CONTROL_PLANE_OPS_PORT: String(await freePort()),
  CONTROL_PLANE_ADMIN_TOKEN: TOKEN,
  CONTROL_PLANE_CONSOLE_TOKEN: CONSOLE_TOKENS.control,
  CONTROL_PLANE_LOG_LEVEL: "warn",
};
const control = spawnNode("apps/control-plane/dist/main.js", controlEnv);
await waitReady(Number(controlEnv.CONTROL_PLANE_OPS_PORT));
const cpDb = new pg.Client({ connectionString: dbUrl });
await cpDb.connect();
await cpDb.query("INSERT INTO control.organizations (id, name, in_trial) VALUES ('org_big', 'the biggest organization', false) ON CONFLICT DO NOTHING");
// The keys the seeded records name, so the pages show them by name and a key's page finds its key.
await cpDb.query(
  `INSERT INTO control.api_keys (id, org_id, name, key_hash, prefix)
   SELECT 'key_' || k, 'org_big', 'bench key ' || k, md5('bench key ' || k), 'sk-gateway-b' || k FROM generate_series(0, 6) k ON CONFLICT DO NOTHING`,
);
await cpDb.end();
const consolePort = await freePort();
const consoleProc = spawnNode("apps/console/dist/main.js", {
  CONSOLE_PORT: String(consolePort),
  CONSOLE_CONTROL_PLANE_ADDR: `127.0.0.1:${controlEnv.CONTROL_PLANE_GRPC_PORT}`,
  CONSOLE_LEDGER_ADDR: `127.0.0.1:${env.LEDGER_GRPC_PORT}`,
  CONSOLE_CONTROL_PLANE_TOKEN: CONSOLE_TOKENS.control,
  CONSOLE_LEDGER_TOKEN: CONSOLE_TOKENS.ledger,
});
const consoleUrl = `http://127.0.0.1:${consolePort}`;
for (let i = 0; i < 100; i++) {
  if (
    await fetch(`${consoleUrl}/api/signin-options`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  await new Promise((r) => setTimeout(r, 100));
}
const admin = createClient(adminService(), `127.0.0.1:${controlEnv.CONTROL_PLANE_GRPC_PORT}`, { timeoutMs: 10_000, metadata: bearer(TOKEN) });
const link = await admin.CreateSignInLink({ org: "org_big", email: "admin@big.example", role: "admin" });
admin.close();
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox", "--disable-dev-shm-usage"] });
const page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
await page.goto(`${consoleUrl}/signin?token=${link.token}`);
await page.getByRole("button", { name: "Sign in" }).click();
await page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
// Each page 20 times: the overview (credits and its six charts by model), a key's page (its six charts), the request log.
for (const [name, path] of [
  ["overview page", "/"],
  ["key page", "/keys/key_3"],
  ["request log page", "/requests"],
] as const) {
  const loads: number[] = [];
  for (let i = 0; i < 20; i++) {
    const t = performance.now();
    await page.goto(`${consoleUrl}${path}`);
    await page.waitForSelector("body[data-ready='true']", { timeout: 30_000 });
    loads.push(performance.now() - t);
  }
  if (await page.locator(".page-error").count()) throw new Error(`${path}: ${await page.locator(".page-error").textContent()}`);
  // The charts were drawn, the new ones with figures (not an empty window).
  if (path !== "/requests" && (await page.locator("#chart-latency canvas").count()) === 0) throw new Error(`${path}: no latency chart drawn`);
  if (path !== "/requests" && !/ (ms|s);/.test((await page.locator("#chart-latency-summary").textContent()) ?? "")) throw new Error(`${path}: no p95 latency read`);
  loads.sort((a, b) => a - b);
  results[`${name}, time to interactive (browser, big org)`] = { p50: pct(loads, 50), p95: pct(loads, 95), rows: 20 };
}
await browser.close();
await stopChild(consoleProc);
await stopChild(control);

console.log(`console reads on ${sizes.rows[0]!.records} usage records (${sizes.rows[0]!.big} in the biggest organization), ${sizes.rows[0]!.rollups} rollup rows; seeded in ${seedS.toFixed(0)} s`);
for (const [name, r] of Object.entries(results)) console.log(`  ${name.padEnd(56)} p50 ${r.p50.toFixed(1).padStart(7)} ms  p95 ${r.p95.toFixed(1).padStart(7)} ms  (${r.rows} rows)`);
console.log(JSON.stringify({ bench: "console-queries", date: new Date().toISOString().slice(0, 10), records: Number(sizes.rows[0]!.records), results }));

await stopChild(ledger);
await nats.stop();
await pgServer.stop();
