import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, migrate, sql, type Kysely } from "@gateway/db";
import { encodeEvent, USAGE_SUBJECT, type UsageEventV1 } from "@gateway/events";
import { createDatabase, eventually, testPgUrl } from "@gateway/testing";
import { applyUsageBatch } from "../src/consumer/apply-usage.js";
import type { LedgerDb } from "../src/db/schema.js";
import { migrations } from "../src/db/migrations/index.js";
import { bookViolations, drained, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * Retention (LEDGER_USAGE_RETENTION_MONTHS): whole months of usage records are dropped once past the
 * retention and the deduplication horizon; their totals stay in the hourly rollups, so the books
 * still add up, and an event of a dropped month sent again is set aside, never applied twice.
 */
const FIRST = "20261215000000-usage-partitions";
const DAY = 24 * 3_600_000;
let url: string;
let db: Kysely<LedgerDb>;
let f: LedgerFixture | undefined;

/** The first instant of the UTC month `back` months before this one. */
const monthStart = (back: number) => {
  const d = new Date();
  return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - back, 1);
};

beforeAll(async () => {
  url = await createDatabase(testPgUrl(), "ledger_retention");
  db = createDb({ url, schema: "ledger", poolMax: 2 }) as Kysely<LedgerDb>;
  // A ledger partitioned four months ago: its legacy table ends there, months follow.
  await migrate(db as Kysely<unknown>, "ledger", Object.fromEntries(Object.entries(migrations).filter(([name]) => name < FIRST)));
  await sql`
    CREATE TABLE usage_partitioning (id integer PRIMARY KEY DEFAULT 1 CHECK (id = 1), legacy_bound timestamptz NOT NULL, backfill_after text,
      backfilled boolean NOT NULL DEFAULT false, retained_from timestamptz)`.execute(db);
  await sql`INSERT INTO usage_partitioning (legacy_bound) VALUES (${new Date(monthStart(4))})`.execute(db);
  await migrate(db as Kysely<unknown>, "ledger", migrations);
}, 60_000);

afterAll(async () => {
  await f?.stop();
  await db?.destroy();
});

it("drops the months past retention and keeps the books; a dropped month's event sent again is set aside", async () => {
  const org = "org_retention";
  // Applied when they were recent: five months ago (the legacy table), three and two months ago,
  // last month (kept: retention is one month), and now.
  const old: UsageEventV1[] = [5, 3, 2].map((back) => usageEvent(org, "", 100 * back, { created_at_ms: monthStart(back) + 3 * DAY }));
  const lastMonth = usageEvent(org, "", 50, { created_at_ms: monthStart(1) + 3 * DAY });
  const recent = usageEvent(org, "", 7);
  await applyUsageBatch(db, [...old, lastMonth, recent]);
  expect(await bookViolations(db)).toEqual([]);

  // A ledger keeping one month: its housekeeping at start drops everything before last month.
  f = await startLedgerFixture("ledger_retention_nats", { LEDGER_DATABASE_URL: url, LEDGER_USAGE_RETENTION_MONTHS: "1" });
  await eventually(
    async () => ((await sql<{ at: Date | null }>`SELECT retained_from AS at FROM usage_partitioning`.execute(db)).rows[0]?.at?.getTime() === monthStart(1) ? true : undefined),
    15_000,
    "months before last month dropped",
  );
  const parts = await sql<{ name: string }>`SELECT c.relname AS name FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = 'usage_records'::regclass`.execute(db);
  expect(parts.rows.map((r) => r.name)).not.toContain("usage_records_legacy");
  const kept = await sql<{ request_id: string }>`SELECT request_id FROM usage_records WHERE org_id = ${org}`.execute(db);
  expect(kept.rows.map((r) => r.request_id).sort()).toEqual([lastMonth.request_id, recent.request_id].sort());
  // The dropped months' spend is in the rollups: balance, spend and journal still agree.
  const spent = await sql<{ spent: number }>`SELECT spent_minor AS spent FROM accounts WHERE org_id = ${org}`.execute(db);
  expect(spent.rows[0]!.spent).toBe(1_000 + 50 + 7);
  expect(await bookViolations(db)).toEqual([]);
  // Last month's record, past the horizon (its id forgotten), is found by its month's request id
  // index; this month's through usage_dedup; a dropped month's is gone.
  await eventually(
    async () => ((await sql`SELECT 1 FROM usage_dedup WHERE request_id = ${lastMonth.request_id}`.execute(db)).rows.length === 0 ? true : undefined),
    15_000,
    "last month's id forgotten",
  );
  expect(await f.client.GetUsage({ request_id: lastMonth.request_id, org_id: org, wait_ms: 0 })).toMatchObject({ request_id: lastMonth.request_id, cost_minor: 50 });
  expect(await f.client.GetUsage({ request_id: recent.request_id, org_id: org, wait_ms: 0 })).toMatchObject({ request_id: recent.request_id, cost_minor: 7 });
  await expect(f.client.GetUsage({ request_id: old[1]!.request_id, org_id: org, wait_ms: 0 })).rejects.toMatchObject({ code: "not_found" });
  const lastPart = `usage_records_${new Date(monthStart(1)).getUTCFullYear()}_${String(new Date(monthStart(1)).getUTCMonth() + 1).padStart(2, "0")}`;
  const indexes = await sql<{ name: string }>`SELECT indexname AS name FROM pg_indexes WHERE tablename = ${lastPart}`.execute(db);
  expect(indexes.rows.map((r) => r.name)).toContain(`${lastPart}_request`);

  // The event of three months ago, published again (a stranded spool found late): it is older than
  // the deduplication horizon, so it is set aside instead of billed a second time.
  await f.js.publish(USAGE_SUBJECT, encodeEvent(old[1]!), { msgID: `${old[1]!.request_id}-again` });
  await drained(f.nc);
  const set = await sql<{ reason: string }>`SELECT reason FROM dead_letters WHERE request_id = ${old[1]!.request_id}`.execute(db);
  expect(set.rows).toEqual([{ reason: "out_of_horizon" }]);
  expect((await sql<{ spent: number }>`SELECT spent_minor AS spent FROM accounts WHERE org_id = ${org}`.execute(db)).rows[0]!.spent).toBe(1_057);
  expect(await bookViolations(db)).toEqual([]);
}, 60_000);
