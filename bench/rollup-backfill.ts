/**
 * The rollups' errors and latency counted by their migration (20261222000000-rollup-errors-latency)
 * on a ledger that has usage: seeds N records over D days straight into Postgres (durable) on the
 * schema before it, sums their rollups as the apply function did then, and times the migration.
 *
 *   make build && node bench/rollup-backfill.ts [records=1000000] [days=9]
 */
import { createDb, migrate, sql, type Kysely } from "@gateway/db";
import { createDatabase, startPostgres } from "@gateway/testing";
import { ledgerMigrations as migrations } from "@gateway/ledger";
import { step } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 1_000_000);
const DAYS = Number(process.argv[3] ?? 9);
step("starting durable Postgres");
const pg = await startPostgres({ durable: true });
const url = await createDatabase(pg.url, "backfill");
// No statement timeout: seeding a million records takes longer than the services' 10 s.
const db = createDb({ url, schema: "ledger", poolMax: 2, statementTimeoutMs: 0 }) as Kysely<unknown>;
await migrate(db, "ledger", Object.fromEntries(Object.entries(migrations).filter(([name]) => name < "20261222000000")));
const now = Date.now();
for (let from = 0; from < N; from += 500_000) {
  const to = Math.min(N, from + 500_000);
  step(`seeding records ${from}–${to}`);
  // As bench/console-queries.ts: one organization holds a tenth; 1 in 97 a 499; latencies from 5 ms to ~60 s.
  await sql
    .raw(`INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
       cached_input_tokens, estimated, cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, created_at)
     SELECT 'req_' || lpad(g::text, 10, '0'), CASE WHEN g % 10 = 0 THEN 'org_big' ELSE 'org_' || (g % 999) END,
       'key_' || ((g / 10) % 7), 'm' || ((g / 70) % 5), 'chat', 'fake', 'fake-chat', '', 50, 20, 0, false, 1, 1, 1, false,
       CASE WHEN g % 97 = 0 THEN 499 ELSE 200 END, (5 * exp((g % 1009) / 1009.0 * 9.4))::int,
       to_timestamp(${now / 1000} - (g::bigint * ${DAYS * 86_400}::bigint / ${N}::bigint))
     FROM generate_series(${from}, ${to - 1}) AS g`)
    .execute(db);
}
step("rolling up, as the apply function did before the migration");
await sql
  .raw(`INSERT INTO usage_rollups (org_id, hour, key_id, model, requests, input_tokens, output_tokens, cached_input_tokens, cache_creation_input_tokens, reasoning_tokens, cost_minor, absorbed_minor)
   SELECT org_id, date_trunc('hour', created_at, 'UTC'), key_id, model, count(*), sum(input_tokens), sum(output_tokens), sum(cached_input_tokens),
     sum(cache_creation_input_tokens), sum(reasoning_tokens), sum(cost_minor), sum(absorbed_minor) FROM usage_records GROUP BY 1, 2, 3, 4`)
  .execute(db);
await sql.raw("ANALYZE usage_records; ANALYZE usage_rollups").execute(db);
step("migrating");
const t = performance.now();
await migrate(db, "ledger", migrations);
const ms = performance.now() - t;
const rows = (await sql<{ n: string }>`SELECT count(*) AS n FROM usage_rollups`.execute(db)).rows[0]!.n;
console.log(`rollup backfill: ${N} records over ${DAYS} days (${Math.round(N / DAYS)} a day), ${rows} rollup rows: migration ${(ms / 1000).toFixed(1)} s, ${(ms / DAYS).toFixed(0)} ms per day`);
await db.destroy();
await pg.stop();
