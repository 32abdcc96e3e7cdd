/**
 * The partitioning migration at size (issue 40): N usage records (default 1 million, over a year,
 * 100 organizations) in a ledger's schema as it was before 20261215000000-usage-partitions, then
 * the migrate step as a deployment runs it (its own connection, a 2 s lock timeout) while a
 * previous-release ledger keeps applying batches of 10 events through apply_usage_batch. Reports
 * the migration's wall time and the apply calls' latency before and during it (p50, p99, max): the
 * longest an insert waited on the migration.
 *
 *   make build && node bench/partition-migration.ts [records=1000000]
 */
import { createDb, migrate, sql, type Kysely } from "@gateway/db";
import type { UsageEventV1 } from "@gateway/events";
import { createDatabase, startPostgres } from "@gateway/testing";
import { applyUsageBatch } from "@gateway/ledger";
import { ledgerMigrations as migrations, type LedgerDb } from "@gateway/ledger";
import { pct, step } from "./ledger-common.ts";

const N = Number(process.argv[2] ?? 1_000_000);
const FIRST = "20261215000000-usage-partitions";

step("starting Postgres");
const pgServer = await startPostgres({});
const url = await createDatabase(pgServer.url, "partition_bench");
const db = createDb({ url, schema: "ledger", poolMax: 2 }) as Kysely<LedgerDb>;
try {
  await migrate(db as Kysely<unknown>, "ledger", Object.fromEntries(Object.entries(migrations).filter(([name]) => name < FIRST)));
  step(`seeding ${N} records`);
  const seeded = Date.now();
  for (let from = 1; from <= N; from += 200_000) {
    const to = Math.min(N, from + 199_999);
    await sql`
      INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
        cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, created_at)
      SELECT 'req_bulk_' || g, 'org_' || (g % 100), 'key_' || (g % 7), 'm' || (g % 3), 'chat', 'p', 'u', '', 200, 50, 3, 1, 1, false, 200, 40,
        now() - make_interval(secs => (g * 31536000.0 / ${N})::int)
      FROM generate_series(${from}::int, ${to}::int) g`.execute(db);
  }
  await sql`VACUUM ANALYZE usage_records`.execute(db);
  step(`seeded in ${((Date.now() - seeded) / 1000).toFixed(0)} s`);

  const traffic = createDb({ url, schema: "ledger", poolMax: 1 }) as Kysely<LedgerDb>;
  let seq = 0;
  const event = (): UsageEventV1 => ({
    version: 1,
    request_id: `req_live_${seq++}`,
    org_id: `org_${seq % 100}`,
    key_id: "key_live",
    model: "m0",
    route: "chat",
    provider: "p",
    upstream_model: "u",
    lease_id: "",
    usage: { input_tokens: 200, output_tokens: 50, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 1,
    output_price_minor_per_mtok: 1,
    cost_minor: 3,
    line_items: [],
    guardrails: [],
    attempts: [],
    stream: false,
    status: 200,
    created_at_ms: Date.now(),
    duration_ms: 40,
  });
  type Phase = "before" | "during" | "after";
  let phase = "before" as Phase;
  const latency: Record<Phase, number[]> = { before: [], during: [], after: [] };
  let stop = false;
  let retried = 0;
  const apply = (async () => {
    while (!stop) {
      const batch = Array.from({ length: 10 }, event);
      const t = performance.now();
      await applyUsageBatch(traffic, batch).catch(() => {
        retried++;
        return applyUsageBatch(traffic, batch);
      });
      latency[phase].push(performance.now() - t);
    }
  })();
  await new Promise((r) => setTimeout(r, 3_000));
  phase = "during";
  step("migrating");
  const t0 = Date.now();
  await migrate(db as Kysely<unknown>, "ledger", migrations, { lockTimeoutMs: 2_000, statementTimeoutMs: 6 * 3_600_000 });
  const migrateMs = Date.now() - t0;
  phase = "after";
  await new Promise((r) => setTimeout(r, 3_000));
  stop = true;
  await apply;
  await traffic.destroy();
  const dedup = (await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_dedup`.execute(db)).rows[0]!.n;
  const row = (xs: number[]) => ({ calls: xs.length, p50_ms: +pct(xs, 50).toFixed(1), p99_ms: +pct(xs, 99).toFixed(1), max_ms: +Math.max(...xs).toFixed(1) });
  console.log(
    JSON.stringify(
      {
        records: N,
        migrate_s: +(migrateMs / 1000).toFixed(1),
        dedup_backfilled: dedup,
        retried_batches: retried,
        apply_before: row(latency.before),
        apply_during: row(latency.during),
        apply_after: row(latency.after),
      },
      null,
      2,
    ),
  );
} finally {
  await db.destroy();
  await pgServer.stop();
}
