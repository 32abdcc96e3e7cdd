import { afterAll, beforeAll, expect, it } from "vitest";
import { createDb, migrate, sql, type Kysely } from "@gateway/db";
import type { UsageEventV1 } from "@gateway/events";
import { createDatabase, testPgUrl } from "@gateway/testing";
import { applyUsageBatch } from "../src/consumer/apply-usage.js";
import type { LedgerDb } from "../src/db/schema.js";
import { migrations } from "../src/db/migrations/index.js";
import { bookViolations, usageEvent } from "./support.js";

/**
 * Upgrading a ledger that has usage from before the hourly rollups (migration
 * 20261201000000-usage-rollups): the migration sums the existing records into the rollups, and
 * records applied after it are rolled up by the trigger, so the console's charts equal the records
 * for every organization, key, model and hour, the records of the hour being upgraded in included;
 * so do the error counts and latency histograms 20261222000000 counts from the records.
 */
let db: Kysely<LedgerDb>;
const FIRST_NEW = "20261201000000-usage-rollups";
const HOUR = 3_600_000;
/** A whole UTC hour, two days ago. */
const T0 = Math.floor((Date.now() - 48 * HOUR) / HOUR) * HOUR;

beforeAll(async () => {
  db = createDb({ url: await createDatabase(testPgUrl(), "ledger_rollup_backfill"), schema: "ledger", poolMax: 2 }) as Kysely<LedgerDb>;
});
afterAll(async () => {
  await db?.destroy();
});

/** Usage spread over organizations, keys, models and 30 hours, each hour's edges included. */
function history(): UsageEventV1[] {
  const events: UsageEventV1[] = [];
  for (let i = 0; i < 600; i++) {
    const org = `org_rb_${i % 3}`;
    // The first and last millisecond of an hour, and points in between.
    const offset = i % 5 === 0 ? 0 : i % 5 === 1 ? HOUR - 1 : (i * 7_919) % HOUR;
    events.push(
      usageEvent(org, "", 1 + (i % 97), {
        request_id: `req_rb_${i}`,
        key_id: `key_rb_${i % 2}`,
        model: ["gw-a", "gw-b", "gw-c"][i % 3 === 0 ? (i >> 1) % 3 : i % 3]!,
        usage: { input_tokens: 100 + i, output_tokens: 10 + (i % 50), cached_input_tokens: i % 40, cache_creation_input_tokens: i % 7, reasoning_tokens: i % 11, estimated: i % 13 === 0 },
        created_at_ms: T0 + Math.floor(i / 20) * HOUR + offset,
        // Errors and latencies over the histogram's range (20261222000000 counts them from the records).
        status: i % 9 === 0 ? 502 : i % 17 === 0 ? 400 : 200,
        duration_ms: (i * 7_919) % 400_000,
      }),
    );
  }
  return events;
}

it("sums every record from before the rollups into them, and rolls up the ones applied after, so the charts equal the records", async () => {
  await migrate(db as Kysely<unknown>, "ledger", Object.fromEntries(Object.entries(migrations).filter(([name]) => name < FIRST_NEW)));
  const before = history();
  for (let i = 0; i < before.length; i += 50) await applyUsageBatch(db, before.slice(i, i + 50));
  await migrate(db as Kysely<unknown>, "ledger", migrations);
  // After the upgrade: more usage, in hours that already have rolled-up records and in a new one.
  const after = [0, 1, 2, 3].map((i) =>
    usageEvent("org_rb_0", "", 5, { request_id: `req_rb_after_${i}`, key_id: "key_rb_0", model: "gw-a", created_at_ms: i < 3 ? T0 + 1_000 * (i + 1) : T0 + 40 * HOUR }),
  );
  await applyUsageBatch(db, after);

  expect(await bookViolations(db)).toEqual([]);
  // One group written out by the test from the events themselves: org 0, key 0, model gw-a, the first hour.
  const mine = [...before, ...after].filter((e) => e.org_id === "org_rb_0" && e.key_id === "key_rb_0" && e.model === "gw-a" && Math.floor(e.created_at_ms / HOUR) * HOUR === T0);
  const sum = (f: (e: UsageEventV1) => number) => mine.reduce((n, e) => n + f(e), 0);
  const row = (
    await sql<{ requests: string; input_tokens: string; cached_input_tokens: string; cost_minor: string }>`
      SELECT requests, input_tokens, cached_input_tokens, cost_minor FROM usage_rollups
      WHERE org_id = 'org_rb_0' AND key_id = 'key_rb_0' AND model = 'gw-a' AND hour = ${new Date(T0)}`.execute(db)
  ).rows[0];
  expect(mine.length).toBeGreaterThan(3);
  expect(row && { requests: Number(row.requests), input: Number(row.input_tokens), cached: Number(row.cached_input_tokens), cost: Number(row.cost_minor) }).toEqual({
    requests: mine.length,
    input: sum((e) => e.usage.input_tokens),
    cached: sum((e) => e.usage.cached_input_tokens),
    cost: sum((e) => e.cost_minor),
  });
  // Every record is in exactly one rollup: the requests add up.
  const totals = (await sql<{ records: string; rolled: string }>`SELECT (SELECT count(*) FROM usage_records) AS records, (SELECT sum(requests) FROM usage_rollups) AS rolled`.execute(db)).rows[0]!;
  expect(Number(totals.rolled)).toBe(before.length + after.length);
  expect(Number(totals.records)).toBe(before.length + after.length);
});
