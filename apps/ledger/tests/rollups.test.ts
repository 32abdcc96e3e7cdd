import { afterAll, beforeAll, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { eventually } from "@gateway/testing";
import { sql } from "@gateway/db";
import { bookViolations, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * The hourly rollups the console's charts read (org × key × model × UTC hour) move with the usage
 * records in the same transaction: an event delivered twice counts once, and SpendSeries answers by
 * hour or day, per model or key, exactly the records' sums (bookViolations checks the whole table
 * against the records after every ledger test).
 */
let f: LedgerFixture;

const HOUR = 3_600_000;
/** Midnight UTC three days ago: recent enough for the deduplication horizon, past enough for every hour used. */
const DAY0 = Math.floor(Date.now() / (24 * HOUR)) * 24 * HOUR - 3 * 24 * HOUR;
const T0 = DAY0 + 22 * HOUR; // 22:00 UTC: the next hours cross into another day

beforeAll(async () => {
  f = await startLedgerFixture("ledger_rollups", { LEDGER_USAGE_ARRIVAL_MS: "0" });
});

afterAll(async () => {
  await f?.stop();
});

const publish = (ev: UsageEventV1) => f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });

it("sums every applied record once, by hour or UTC day, per model or key", async () => {
  const org = `org_rollups_${process.pid}`;
  const events = [
    usageEvent(org, "", 100, { key_id: "key_a", model: "m1", created_at_ms: T0 + 5 * 60_000 }),
    usageEvent(org, "", 250, {
      key_id: "key_a",
      model: "m2",
      created_at_ms: T0 + 50 * 60_000,
      usage: { input_tokens: 40, output_tokens: 7, cached_input_tokens: 8, reasoning_tokens: 3, estimated: false },
    }),
    usageEvent(org, "", 30, { key_id: "key_b", model: "m1", created_at_ms: T0 + HOUR + 1, status: 502, duration_ms: 1_234 }),
    usageEvent(org, "", 70, { key_id: "key_b", model: "m1", created_at_ms: T0 + 2 * HOUR + 10 }),
    usageEvent(`${org}_other`, "", 999, { key_id: "key_z", model: "m1", created_at_ms: T0 + 10 }),
  ];
  for (const ev of events) await publish(ev);
  // The first one again, as a replica that replays its spool would: the record and the rollups count it once.
  await f.js.publish(USAGE_SUBJECT, encodeEvent(events[0]!), { msgID: `${events[0]!.request_id}-replayed` });
  await eventually(
    async () => ((await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE org_id LIKE ${`${org}%`}`.execute(f.ledger.db)).rows[0]!.n === 5 ? true : undefined),
    15_000,
    "usage applied",
  );

  const byHour = await f.client.SpendSeries({ org_id: org, from_ms: T0, to_ms: T0 + 3 * HOUR, bucket: "hour", group_by: "" });
  expect(byHour.points.map((p) => [p.bucket_start_ms, p.requests, p.cost_minor])).toEqual([
    [T0, 2, 350],
    [T0 + HOUR, 1, 30],
    [T0 + 2 * HOUR, 1, 70],
  ]);
  const first = byHour.points[0]!;
  expect(first).toMatchObject({ input_tokens: 50, output_tokens: 12, cached_input_tokens: 8, reasoning_tokens: 3, errors: 0 });
  // Latency: two records of 3 ms (under the first bound, 10 ms); the failed one of 1,234 ms in [1,000, 1,500).
  expect(byHour.latency_bounds_ms.slice(0, 3)).toEqual([10, 15, 20]);
  expect(first.latency_counts).toHaveLength(byHour.latency_bounds_ms.length + 1);
  expect(first.latency_counts[0]).toBe(2);
  const second = byHour.points[1]!;
  expect(second.errors).toBe(1);
  expect(second.latency_counts[byHour.latency_bounds_ms.indexOf(1_000) + 1]).toBe(1);
  expect(second.latency_counts.reduce((a, b) => a + b, 0)).toBe(1);

  // 22:00 and 23:00 are on the 20th, 00:00 on the 21st (UTC).
  const byDayAndModel = await f.client.SpendSeries({ org_id: org, from_ms: T0 - 22 * HOUR, to_ms: T0 + 26 * HOUR, bucket: "day", group_by: "model" });
  expect(byDayAndModel.points.map((p) => [p.bucket_start_ms, p.group, p.requests, p.cost_minor])).toEqual([
    [DAY0, "m1", 2, 130],
    [DAY0, "m2", 1, 250],
    [DAY0 + 24 * HOUR, "m1", 1, 70],
  ]);
  const byKey = await f.client.SpendSeries({ org_id: org, from_ms: T0, to_ms: T0 + 3 * HOUR, bucket: "day", group_by: "key" });
  expect(byKey.points.map((p) => [p.group, p.cost_minor])).toEqual([
    ["key_a", 350],
    ["key_b", 30],
    ["key_b", 70],
  ]);
  // The same without the latency histograms (a key list's spend and last use): every other figure as it was.
  const byKeyLean = await f.client.SpendSeries({ org_id: org, from_ms: T0, to_ms: T0 + 3 * HOUR, bucket: "day", group_by: "key", without_latency: true });
  expect(byKey.points.every((p) => p.latency_counts.some((n) => n > 0))).toBe(true);
  expect(byKeyLean.points).toEqual(byKey.points.map((p) => ({ ...p, latency_counts: [] })));
  // One key's usage, by model (a key's page).
  const ofKeyB = await f.client.SpendSeries({ org_id: org, from_ms: T0, to_ms: T0 + 3 * HOUR, bucket: "day", group_by: "model", key_id: "key_b" });
  expect(ofKeyB.points.map((p) => [p.group, p.requests, p.errors, p.cost_minor])).toEqual([
    ["m1", 1, 1, 30],
    ["m1", 1, 0, 70],
  ]);
  // Another organization's usage is not in this one's series.
  expect(byHour.points.reduce((n, p) => n + p.cost_minor, 0)).toBe(450);
  expect(await bookViolations(f.ledger.db)).toEqual([]);
});

it("refuses windows it would answer unboundedly, and unknown buckets or groups", async () => {
  await expect(f.client.SpendSeries({ org_id: "o", from_ms: 0, to_ms: 40 * 24 * HOUR, bucket: "hour", group_by: "" })).rejects.toThrow(/at most 31 days/);
  await expect(f.client.SpendSeries({ org_id: "o", from_ms: 0, to_ms: HOUR, bucket: "week" as never, group_by: "" })).rejects.toThrow(/bucket/);
  await expect(f.client.SpendSeries({ org_id: "o", from_ms: 0, to_ms: HOUR, bucket: "hour", group_by: "route" as never })).rejects.toThrow(/group_by/);
  await expect(f.client.SpendSeries({ org_id: "", from_ms: 0, to_ms: HOUR, bucket: "hour", group_by: "" })).rejects.toThrow(/org_id/);
});

it("lists an organization's requests newest first, filtered, in keyset pages that neither skip nor repeat a record", async () => {
  const org = `org_log_${process.pid}`;
  // 25 records, several sharing a created_at (ties are ordered by request id), two keys and models.
  const events = Array.from({ length: 25 }, (_, i) =>
    usageEvent(org, "", i + 1, { key_id: i % 2 ? "key_odd" : "key_even", model: i % 3 ? "m1" : "m3", status: i % 5 ? 200 : 499, created_at_ms: T0 + Math.floor(i / 3) * 1_000 }),
  );
  for (const ev of events) await publish(ev);
  await eventually(
    async () => ((await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE org_id = ${org}`.execute(f.ledger.db)).rows[0]!.n === 25 ? true : undefined),
    15_000,
    "log applied",
  );
  const all = async (filter: Partial<Parameters<typeof f.client.ListUsage>[0]>) => {
    const ids: string[] = [];
    let cursor = "";
    for (;;) {
      const page = await f.client.ListUsage({ org_id: org, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: 4, cursor, ...filter });
      expect(page.records.length).toBeLessThanOrEqual(4);
      ids.push(...page.records.map((r) => r.request_id));
      if (!page.next_cursor) return ids;
      cursor = page.next_cursor;
    }
  };
  // Newest first: created_at descending, then request id descending.
  const expected = [...events].sort((a, b) => b.created_at_ms - a.created_at_ms || (a.request_id < b.request_id ? 1 : -1)).map((e) => e.request_id);
  expect(await all({})).toEqual(expected);
  const odd = await all({ key_id: "key_odd", model: "m1" });
  expect(odd).toEqual(expected.filter((id) => events.find((e) => e.request_id === id)!.key_id === "key_odd" && events.find((e) => e.request_id === id)!.model === "m1"));
  expect(await all({ status: 499 })).toHaveLength(5);
  expect(await all({ from_ms: T0 + 3_000, to_ms: T0 + 5_000 })).toHaveLength(6);
  await expect(f.client.ListUsage({ org_id: org, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: 4, cursor: "bm90LWEtY3Vyc29y" })).rejects.toThrow(/cursor/);
  await expect(f.client.ListUsage({ org_id: org, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: 500, cursor: "" })).rejects.toThrow(/limit/);
});
