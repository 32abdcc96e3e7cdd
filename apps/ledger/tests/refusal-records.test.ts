import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, expect, it } from "vitest";
import { USAGE_REFUSED_SUBJECT, USAGE_SUBJECT, encodeEvent, type RefusalEventV1 } from "@gateway/events";
import { createDb, migrate, sql, type Kysely } from "@gateway/db";
import { createDatabase, eventually, testPgUrl } from "@gateway/testing";
import { applyRefusals } from "../src/consumer/apply-refusals.js";
import { applyUsageBatch } from "../src/consumer/apply-usage.js";
import { migrations } from "../src/db/migrations/index.js";
import type { LedgerDb } from "../src/db/schema.js";
import { UNRESOLVED_MODEL } from "../src/rollups/refusals.js";
import { bookViolations, drained, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * Refusal records (`usage.v1.refused`, docs/billing.md, "Refusal records"): stored as usage records
 * of cost 0 with their status and error code, each request id once however often it comes, beside
 * billed events in the same pull, touching no account, lease, journal or feed; counted once each in
 * the hourly rollups (a request and an error), a model the data-plane did not resolve under one label.
 */
let f: LedgerFixture;

beforeAll(async () => {
  f = await startLedgerFixture("ledger_refusals");
});

afterAll(async () => {
  await f?.stop();
});

let n = 0;
const refusal = (org: string, over: Partial<RefusalEventV1> = {}): RefusalEventV1 => ({
  version: 1,
  request_id: `req_refused_${process.pid}_${n++}`,
  org_id: org,
  key_id: "key_r",
  model: "gw-nope",
  route: "chat",
  status: 404,
  error_code: "model_not_found",
  message: "The model 'gw-nope' does not exist.",
  stream: false,
  created_at_ms: Date.now(),
  duration_ms: 1,
  ...over,
});

it("stores a refusal once, at cost 0 with its code, beside a billed event, and moves no money", async () => {
  const org = `org_refusals_${process.pid}`;
  const r = refusal(org);
  const billed = usageEvent(org, "", 0);
  // The same refusal three times (a redelivery, a second publish past the duplicate window) and a billed event.
  await Promise.all([
    f.js.publish(USAGE_REFUSED_SUBJECT, encodeEvent(r), { msgID: r.request_id }),
    f.js.publish(USAGE_REFUSED_SUBJECT, encodeEvent(r), { msgID: `${r.request_id}-again` }),
    f.js.publish(USAGE_SUBJECT, encodeEvent(billed), { msgID: billed.request_id }),
  ]);
  await f.js.publish(USAGE_REFUSED_SUBJECT, encodeEvent(r), { msgID: `${r.request_id}-third` });
  // Not a refusal: a status no refusal has. Set aside, never stored.
  const bad = refusal(org, { status: 200 } as Partial<RefusalEventV1>);
  await f.js.publish(USAGE_REFUSED_SUBJECT, encodeEvent(bad), { msgID: bad.request_id });
  await drained(f.nc);

  const rec = await f.client.GetUsage({ request_id: r.request_id, org_id: org, wait_ms: 2_000 });
  expect(rec).toMatchObject({
    cost_minor: 0,
    status: 404,
    error_code: "model_not_found",
    error_message: r.message,
    model: "gw-nope",
    route: "chat",
    provider: "",
    line_items_json: "[]",
    attempts_json: "[]",
    feed_seq: 0,
  });
  const rows = await sql<{ n: number }>`SELECT count(*)::int AS n FROM usage_records WHERE request_id = ${r.request_id}`.execute(f.ledger.db);
  expect(rows.rows[0]!.n).toBe(1);
  // The billed event is applied as ever, with no error code.
  expect((await f.client.GetUsage({ request_id: billed.request_id, org_id: org, wait_ms: 2_000 })).error_code).toBe("");
  await expect(f.client.GetUsage({ request_id: bad.request_id, org_id: org, wait_ms: 0 })).rejects.toMatchObject({ code: "not_found" });
  const dead = await sql<{ reason: string }>`SELECT reason FROM dead_letters WHERE subject = ${USAGE_REFUSED_SUBJECT}`.execute(f.ledger.db);
  expect(dead.rows.map((d) => d.reason)).toEqual(["invalid"]);

  // No money moved: no journal, no feed number; the rollups count the billed request and the refusal once; the books hold.
  const rollups = await sql<{ requests: number }>`SELECT coalesce(sum(requests), 0)::int AS requests FROM usage_rollups WHERE org_id = ${org}`.execute(f.ledger.db);
  expect(rollups.rows[0]!.requests).toBe(2);
  expect(await bookViolations(f.ledger.db)).toEqual([]);
  const metrics = await eventually(
    async () => {
      const text = await (await fetch(`http://127.0.0.1:${f.ledger.opsPort}/metrics`)).text();
      const count = (result: string) => Number(new RegExp(`^ledger_refusal_records_total\\{[^}]*result="${result}"[^}]*\\} (\\d+)`, "m").exec(text)?.[1] ?? 0);
      return count("applied") === 1 ? { applied: count("applied"), duplicate: count("duplicate") } : undefined;
    },
    5_000,
    "the refusal counted",
  );
  expect(metrics).toEqual({ applied: 1, duplicate: 2 });
});

const HOUR = 3_600_000;

/** An organization's rollup rows by key, model and hour: requests, errors, tokens, cost and what the latency histogram counts. */
async function rollupsOf(db: Kysely<LedgerDb>, org: string) {
  const rows = await sql<{ key_id: string; model: string; requests: number; errors: number; tokens: number; cost: number; timed: number }>`
    SELECT key_id, model, requests::int, errors::int, (input_tokens + output_tokens)::int AS tokens, cost_minor::int AS cost,
      (SELECT sum(c)::int FROM unnest(latency_counts) AS c) AS timed
    FROM usage_rollups WHERE org_id = ${org} ORDER BY key_id COLLATE "C", model COLLATE "C", hour`.execute(db);
  return rows.rows;
}

it("counts each stored refusal once in its hourly rollup, a request and an error, under its model when the data-plane resolved it and under one label when not; the books hold", async () => {
  const org = `org_refused_rollups_${process.pid}`;
  // One past hour, so that no record of the test falls into the next.
  const at = Math.floor(Date.now() / HOUR) * HOUR - HOUR + 60_000;
  const refused = (over: Partial<RefusalEventV1>) => refusal(org, { created_at_ms: at + n, ...over });
  // A caller sending a new name each time: a record each, and one rollup row for them all.
  const random = Array.from({ length: 12 }, () => refused({ model: `gw-${randomUUID()}` }));
  const credit = { status: 402, error_code: "insufficient_credits", message: "Top up.", model_resolved: true };
  const resolved = Array.from({ length: 3 }, () => refused({ model: "gw-chat-mini", ...credit }));
  // From a data-plane before the flag: whatever its model, under the label.
  const unflagged = refused({ model: "gw-chat-mini", status: 400, error_code: "invalid_request", message: "'messages' is required." });
  const unnamed = [0, 1].map(() => refused({ model: "", key_id: "key_s", status: 400, error_code: "invalid_request", message: "Not JSON." }));
  const billed = usageEvent(org, "", 0, { key_id: "key_r", model: "gw-chat-mini", created_at_ms: at });
  const all = [...random, ...resolved, unflagged, ...unnamed];

  await Promise.all([...all.map((r) => f.js.publish(USAGE_REFUSED_SUBJECT, encodeEvent(r), { msgID: r.request_id })), f.js.publish(USAGE_SUBJECT, encodeEvent(billed), { msgID: billed.request_id })]);
  await drained(f.nc);
  // Delivered again (past NATS' duplicate window: other message ids): stored and counted nothing more.
  await Promise.all([random[0]!, random[5]!, resolved[1]!, unnamed[0]!].map((r) => f.js.publish(USAGE_REFUSED_SUBJECT, encodeEvent(r), { msgID: `${r.request_id}-again` })));
  await drained(f.nc);

  expect(await rollupsOf(f.ledger.db, org)).toEqual([
    { key_id: "key_r", model: UNRESOLVED_MODEL, requests: 13, errors: 13, tokens: 0, cost: 0, timed: 0 },
    // The billed request and the three refused ones; only the billed one has tokens and a latency.
    { key_id: "key_r", model: "gw-chat-mini", requests: 4, errors: 3, tokens: 15, cost: 0, timed: 1 },
    { key_id: "key_s", model: UNRESOLVED_MODEL, requests: 2, errors: 2, tokens: 0, cost: 0, timed: 0 },
  ]);
  // The records keep the names their callers sent.
  const names = await sql<{ n: number }>`SELECT count(DISTINCT model)::int AS n FROM usage_records WHERE org_id = ${org}`.execute(f.ledger.db);
  expect(names.rows[0]!.n).toBe(12 + 2);
  // What the console's charts read: the hour's requests and errors by model.
  const series = await f.client.SpendSeries({ org_id: org, from_ms: at - 60_000, to_ms: at + HOUR, bucket: "hour", group_by: "model" });
  const byModel = Object.fromEntries(series.points.map((p) => [p.group, { requests: Number(p.requests), errors: Number(p.errors) }]));
  expect(byModel).toEqual({ [UNRESOLVED_MODEL]: { requests: 15, errors: 15 }, "gw-chat-mini": { requests: 4, errors: 3 } });
  expect(await bookViolations(f.ledger.db)).toEqual([]);
});

it("upgrading counts in the refusals stored before (under the label: their records do not say whether the model was resolved), once however often it runs", async () => {
  const FIRST_NEW = "20261229000000-refusal-rollups";
  const db = createDb({ url: await createDatabase(testPgUrl(), "ledger_refusal_rollups_upgrade"), schema: "ledger", poolMax: 2 }) as Kysely<LedgerDb>;
  try {
    await migrate(db as Kysely<unknown>, "ledger", Object.fromEntries(Object.entries(migrations).filter(([name]) => name < FIRST_NEW)));
    const org = "org_refused_upgrade";
    const t0 = Math.floor(Date.now() / HOUR) * HOUR - 30 * HOUR;
    const before = [
      ...[0, 1, 2].map((i) => refusal(org, { model: `gw-typo-${i}`, created_at_ms: t0 + i })),
      refusal(org, { model: "gw-chat-mini", status: 402, error_code: "insufficient_credits", model_resolved: true, created_at_ms: t0 + 26 * HOUR }),
    ];
    await applyUsageBatch(db, [usageEvent(org, "", 0, { key_id: "key_r", model: "gw-chat-mini", created_at_ms: t0 + 26 * HOUR })]);
    expect((await applyRefusals(db, before)).size).toBe(4);
    expect(await rollupsOf(db, org)).toEqual([{ key_id: "key_r", model: "gw-chat-mini", requests: 1, errors: 0, tokens: 15, cost: 0, timed: 1 }]);

    await migrate(db as Kysely<unknown>, "ledger", migrations);
    // After it, a refusal is rolled up by its own statement, into the rows the upgrade counted.
    await applyRefusals(db, [refusal(org, { model: "gw-typo-9", created_at_ms: t0 + 5 })]);
    const counted = [
      // The first hour's three, and the one after; the later hour's refusal, whose record does not say its model was resolved.
      { key_id: "key_r", model: UNRESOLVED_MODEL, requests: 4, errors: 4, tokens: 0, cost: 0, timed: 0 },
      { key_id: "key_r", model: UNRESOLVED_MODEL, requests: 1, errors: 1, tokens: 0, cost: 0, timed: 0 },
      { key_id: "key_r", model: "gw-chat-mini", requests: 1, errors: 0, tokens: 15, cost: 0, timed: 1 },
    ];
    expect(await rollupsOf(db, org)).toEqual(counted);
    expect(await bookViolations(db)).toEqual([]);
    // A migrate stopped after its count and run again counts nothing twice.
    await migrations[FIRST_NEW]!.up(db as Kysely<unknown>);
    expect(await rollupsOf(db, org)).toEqual(counted);
    expect(await bookViolations(db)).toEqual([]);
  } finally {
    await db.destroy();
  }
});
