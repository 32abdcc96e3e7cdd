import { afterAll, beforeAll, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { sql } from "@gateway/db";
import { bookViolations, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * A usage record says how its figures were obtained (`basis`: reported, estimated, drained,
 * bounded), as its event said; an event of a data-plane before the field has none, stored NULL and
 * read from `estimated` (estimated or reported). Applied from JetStream as every event is, read back
 * through GetUsage and ListUsage.
 */
let f: LedgerFixture;

beforeAll(async () => {
  f = await startLedgerFixture("ledger_basis", { LEDGER_USAGE_ARRIVAL_MS: "0" });
});

afterAll(async () => {
  await f?.stop();
});

const publish = (ev: unknown, requestId: string) => f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: requestId });
const tokens = (estimated: boolean, basis?: string) => ({ input_tokens: 10, output_tokens: 5, cached_input_tokens: 0, estimated, ...(basis === undefined ? {} : { basis }) });

it("stores each basis as the event says it, and reads an event without one from estimated", async () => {
  const org = `org_basis_${process.pid}`;
  const cases: { name: string; usage: ReturnType<typeof tokens>; stored: string | null; read: string }[] = [
    { name: "reported", usage: tokens(false, "reported"), stored: "reported", read: "reported" },
    { name: "estimated", usage: tokens(true, "estimated"), stored: "estimated", read: "estimated" },
    { name: "drained", usage: tokens(false, "drained"), stored: "drained", read: "drained" },
    { name: "bounded", usage: tokens(true, "bounded"), stored: "bounded", read: "bounded" },
    // A data-plane before the field.
    { name: "none, counted by the provider", usage: tokens(false), stored: null, read: "reported" },
    { name: "none, counted by the gateway", usage: tokens(true), stored: null, read: "estimated" },
    // A data-plane after this release, with a value this one does not know: the event is applied, the value dropped.
    { name: "unknown value", usage: tokens(true, "guessed"), stored: null, read: "estimated" },
  ];
  const events = cases.map((c) => ({ ...c, ev: usageEvent(org, "", 3, { usage: c.usage as UsageEventV1["usage"] }) }));
  for (const { ev } of events) await publish(ev, ev.request_id);

  for (const { name, ev, read, usage } of events) {
    const r = await f.client.GetUsage({ request_id: ev.request_id, org_id: org, wait_ms: 5_000 });
    expect({ name, basis: r.basis, estimated: r.estimated }).toEqual({ name, basis: read, estimated: usage.estimated });
  }
  const stored = await sql<{ request_id: string; basis: string | null }>`SELECT request_id, basis FROM usage_records WHERE org_id = ${org}`.execute(f.ledger.db);
  const byId = new Map(stored.rows.map((r) => [r.request_id, r.basis]));
  for (const { name, ev, stored: want } of events) expect({ name, stored: byId.get(ev.request_id) }).toEqual({ name, stored: want });

  // The console's request log reads the same records through ListUsage.
  const page = await f.client.ListUsage({ org_id: org, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, limit: 50, cursor: "" });
  const listed = new Map(page.records.map((r) => [r.request_id, r.basis]));
  for (const { name, ev, read } of events) expect({ name, basis: listed.get(ev.request_id) }).toEqual({ name, basis: read });
  expect(await bookViolations(f.ledger.db)).toEqual([]);
});

it("a record applied before the column existed, or by a ledger before it, reads from estimated", async () => {
  const org = `org_basis_old_${process.pid}`;
  // What a previous-release ledger sends apply_usage_batch: no basis in the record.
  const ev = usageEvent(org, "", 0, { usage: { input_tokens: 10, output_tokens: 5, cached_input_tokens: 0, estimated: true } });
  await sql`SELECT applied FROM apply_usage_batch(${JSON.stringify([{ ...ev, ...ev.usage, usage: undefined, line_items: [], guardrails: [] }])}::jsonb, 'post_basis_old')`.execute(f.ledger.db);
  const r = await f.client.GetUsage({ request_id: ev.request_id, org_id: org, wait_ms: 0 });
  expect(r).toMatchObject({ estimated: true, basis: "estimated", input_tokens: 10, output_tokens: 5 });
});
