import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, migrate, sql, type Kysely } from "@gateway/db";
import { createDatabase, testPgUrl } from "@gateway/testing";
import { applyUsageBatch } from "../src/consumer/apply-usage.js";
import type { LedgerDb } from "../src/db/schema.js";
import { migrations } from "../src/db/migrations/index.js";
import { bookViolations, usageEvent } from "./support.js";

/**
 * The migration that partitions usage_records by month (20261215000000-usage-partitions), run as
 * the migrate step runs it (its own connection, a lowered lock timeout) on 100,000 records while
 * a ledger of the previous release keeps applying usage: inserts never wait on its long steps
 * (validation, backfill), only on the short swap; no record is lost or applied twice across it.
 */
const FIRST = "20261215000000-usage-partitions";
const BULK = 100_000;
let url: string;
let db: Kysely<LedgerDb>;

beforeAll(async () => {
  url = await createDatabase(testPgUrl(), "ledger_partition_migration");
  db = createDb({ url, schema: "ledger", poolMax: 2 }) as Kysely<LedgerDb>;
  await migrate(db as Kysely<unknown>, "ledger", Object.fromEntries(Object.entries(migrations).filter(([name]) => name < FIRST)));
  // Ten weeks of history in bulk, a record a minute, rolled up by the trigger: older than the 31 days
  // the dedup remembers and within them. (Each day of it is a step of a later migration's rollup
  // backfill under the traffic below: a year made this test take up to a minute.)
  await sql`
    INSERT INTO usage_records (request_id, org_id, key_id, model, route, provider, upstream_model, lease_id, input_tokens, output_tokens,
      cost_minor, input_price_minor_per_mtok, output_price_minor_per_mtok, stream, status, duration_ms, created_at)
    SELECT 'req_bulk_' || g, 'org_bulk_' || (g % 4), 'key_' || (g % 3), 'm', 'chat', 'p', 'u', '', 10, 5, 1, 1, 1, false, 200, 3,
      now() - make_interval(secs => g * 60)
    FROM generate_series(1, ${BULK}) g`.execute(db);
}, 60_000);

afterAll(async () => {
  await db?.destroy();
});

it("partitions 100,000 records while usage keeps being applied, blocking inserts only for the swap, applying nothing twice", async () => {
  // The previous release's ledger: its own connection (one backend, whose locks we watch).
  const traffic = createDb({ url, schema: "ledger", poolMax: 1 }) as Kysely<LedgerDb>;
  const watcher = createDb({ url, schema: "ledger", poolMax: 1 }) as Kysely<LedgerDb>;
  const pid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(traffic)).rows[0]!.pid;
  let migrating = true;
  const blockers = new Set<string>();
  const sent: ReturnType<typeof usageEvent>[][] = [];
  let duplicatesApplied = 0;
  let appliedDuring = 0;
  let appliedAfter = 0;
  let after = 0;
  const retried: string[] = [];
  const apply = (async () => {
    for (let i = 0; migrating || after < 5; i++) {
      if (!migrating) after++;
      // Every third round sends an earlier batch again (a redelivery): nothing of it may apply.
      const again = i % 3 === 2 ? sent[Math.floor(Math.random() * sent.length)] : undefined;
      const batch = again ?? Array.from({ length: 10 }, () => usageEvent("org_traffic", "", 7));
      if (!again) sent.push(batch);
      // A batch caught in flight by the swap fails once (its plan named the table as it was) and is
      // applied again, as the consumer redelivers a failed batch.
      const { applied } = await applyUsageBatch(traffic, batch).catch((err: { code?: string }) => {
        retried.push(err.code ?? String(err));
        return applyUsageBatch(traffic, batch);
      });
      if (again) duplicatesApplied += applied.size;
      else if (migrating) appliedDuring += applied.size;
      else appliedAfter += applied.size;
    }
  })();
  const watch = (async () => {
    while (migrating) {
      // Waits for a table's lock only: a redelivered batch may wait for a backfill statement that is
      // inserting the same request ids into usage_dedup (a row's lock, for that one statement).
      const { rows } = await sql<{ query: string }>`
        SELECT query FROM pg_stat_activity WHERE pid = ANY(pg_blocking_pids(${pid}))
          AND EXISTS (SELECT 1 FROM pg_locks WHERE pid = ${pid} AND NOT granted AND locktype = 'relation')`.execute(watcher);
      for (const r of rows) blockers.add(r.query.replace(/\s+/g, " ").trim().slice(0, 80));
      await new Promise((r) => setTimeout(r, 5));
    }
  })();

  const steps: string[] = [];
  await migrate(db as Kysely<unknown>, "ledger", migrations, {
    lockTimeoutMs: 200,
    statementTimeoutMs: 60_000,
    onProgress: (e) => steps.push(`${e.migration} ${e.phase}`),
  });
  migrating = false;
  await Promise.all([apply, watch]);
  await traffic.destroy();
  await watcher.destroy();

  expect(steps).toContain(`${FIRST} done`);
  const kind = await sql<{ kind: string }>`SELECT relkind AS kind FROM pg_class WHERE oid = 'usage_records'::regclass`.execute(db);
  expect(kind.rows[0]!.kind).toBe("p");
  const parts = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'usage_records'::regclass ORDER BY 1`.execute(db);
  expect(parts.rows.map((r) => r.name)).toContain("usage_records_legacy");
  // Months are ready three ahead of the current one (the legacy table holds this one and the next).
  const ahead = new Date();
  ahead.setUTCMonth(ahead.getUTCMonth() + 3, 1);
  expect(parts.rows.map((r) => r.name)).toContain(`usage_records_${ahead.getUTCFullYear()}_${String(ahead.getUTCMonth() + 1).padStart(2, "0")}`);

  // Usage went on during the migration and after it, and a redelivered batch never applied again.
  expect(appliedDuring).toBeGreaterThan(0);
  expect(appliedAfter).toBeGreaterThan(0);
  expect(duplicatesApplied).toBe(0);
  expect(retried.length).toBeLessThanOrEqual(1);
  const unique = new Set(sent.flat().map((e) => e.request_id)).size;
  const count = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records`.execute(db);
  expect(count.rows[0]!.n).toBe(BULK + unique);
  // Every request id of the last 31 days is remembered: the backfill's and the traffic's.
  const recent = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE created_at >= now() - interval '31 days'`.execute(db);
  const remembered = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_dedup`.execute(db);
  expect(remembered.rows[0]!.n).toBe(recent.rows[0]!.n);
  // Inserts waited for a table's lock at most on the two short steps that take it (the constraint's
  // addition, the swap's transaction), never on the long ones: the validation and the backfill.
  for (const q of blockers) expect(q).not.toMatch(/VALIDATE CONSTRAINT|^WITH batch/);
  // The books of the organization that was billed throughout, and the rollups of every record.
  expect((await bookViolations(db)).filter((v) => !v.includes("org_bulk_"))).toEqual([]);
}, 120_000);
