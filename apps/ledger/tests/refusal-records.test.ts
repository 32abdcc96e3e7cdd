import { afterAll, beforeAll, expect, it } from "vitest";
import { USAGE_REFUSED_SUBJECT, USAGE_SUBJECT, encodeEvent, type RefusalEventV1 } from "@gateway/events";
import { sql } from "@gateway/db";
import { eventually } from "@gateway/testing";
import { bookViolations, drained, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * Refusal records (`usage.v1.refused`, docs/billing.md, "Refusal records"): stored as usage records
 * of cost 0 with their status and error code, each request id once however often it comes, beside
 * billed events in the same pull, touching no account, lease, journal, feed or rollup.
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

  // No money moved: no rollup, no journal, no feed number; the books hold.
  const rollups = await sql<{ requests: number }>`SELECT coalesce(sum(requests), 0)::int AS requests FROM usage_rollups WHERE org_id = ${org}`.execute(f.ledger.db);
  expect(rollups.rows[0]!.requests).toBe(1);
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
