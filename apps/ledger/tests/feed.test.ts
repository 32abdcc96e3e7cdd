import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { createClient, ledgerService, type FeedEntry, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { eventually } from "@gateway/testing";
import { sql } from "@gateway/db";
import { createLedger, loadConfig, type Ledger } from "../src/index.js";
import { FIXTURE_TOKEN, bookViolations, drained, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * The billing feed (docs/billing.md, "The feed"): usage records, top-ups and adjustments of every
 * organization, numbered as they are recorded and served in that order below the watermark, so a
 * reader resuming after the last number it got gets every entry exactly once, even when the
 * transactions that drew the numbers commit out of order.
 */
let f: LedgerFixture;
let n = 0;
const org = () => `org_feed_${process.pid}_${n++}`;
const publish = (ev: UsageEventV1) => f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });

/** Reads the feed after `after` to its end (no follow): the entries and where to resume. */
async function readAll(client: TypedClient<LedgerServiceMethods>, after: number, max = 0): Promise<{ entries: FeedEntry[]; resume: number }> {
  const entries: FeedEntry[] = [];
  let resume = after;
  for await (const page of client.UsageFeed({ after_seq: after, max_entries: max, follow: false })) {
    entries.push(...page.entries);
    resume = page.resume_after_seq;
  }
  return { entries, resume };
}

beforeAll(async () => {
  f = await startLedgerFixture("ledger_feed", { LEDGER_EXPORT_PAGE_ROWS: "50", LEDGER_FEED_WATERMARK_MS: "50" });
});

afterAll(async () => {
  await f?.stop();
});

describe("the billing feed", () => {
  it("serves usage, top-ups and adjustments of every organization in number order, each once, resuming where a reader left off", async () => {
    const { resume: start } = await readAll(f.client, 0);
    const [a, b] = [org(), org()];
    await f.client.SetOrgBilling({
      org_id: a,
      external_customer_id: `cus_${a}`,
      currency: "EUR",
      price_per_credit_micros: 1_000_000,
      time_zone: "Europe/Paris",
      updated_by: "",
      updated_at_ms: 0,
      operator: "t",
    });
    await f.client.TopUp({ org_id: a, amount_minor: 10_000, idempotency_key: `feed-top-${a}`, paid_amount_minor: 1_000, paid_currency: "EUR", payment_reference: "pi_1" });
    await f.client.TopUp({ org_id: b, amount_minor: 10_000, idempotency_key: `feed-top-${b}` });
    const la = await f.client.AcquireLease({ org_id: a, lease_id: "", holder: "feed", amount_minor: 5_000, min_amount_minor: 5_000, ttl_ms: 60_000, monthly_budget_minor: 0 });
    const lb = await f.client.AcquireLease({ org_id: b, lease_id: "", holder: "feed", amount_minor: 5_000, min_amount_minor: 5_000, ttl_ms: 60_000, monthly_budget_minor: 0 });
    const events = Array.from({ length: 120 }, (_, i) => usageEvent(i % 2 ? a : b, i % 2 ? la.lease_id : lb.lease_id, 10));
    for (const ev of events) await publish(ev);
    await drained(f.nc);
    const refund = await f.client.RefundUsage({ org_id: a, request_id: events[1]!.request_id, amount_minor: 4, reason: "r", operator: "ops", idempotency_key: `feed-refund-${a}` });

    const all = await readAll(f.client, start);
    const seqs = all.entries.map((e) => e.seq);
    expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
    expect(new Set(seqs).size).toBe(seqs.length);
    expect(all.resume).toBeGreaterThanOrEqual(seqs.at(-1)!);
    const ours = all.entries.filter((e) => e.org_id === a || e.org_id === b);
    expect(
      ours
        .filter((e) => e.kind === "usage")
        .map((e) => e.usage!.request_id)
        .sort(),
    ).toEqual(events.map((e) => e.request_id).sort());
    expect(ours.filter((e) => e.kind === "top_up")).toHaveLength(2);
    const topUp = ours.find((e) => e.kind === "top_up" && e.org_id === a)!;
    expect(topUp).toMatchObject({ amount_minor: 10_000, external_customer_id: `cus_${a}`, top_up: { paid_amount_minor: 1_000, paid_currency: "EUR", payment_reference: "pi_1" } });
    const r = ours.find((e) => e.kind === "refund")!;
    expect(r).toMatchObject({ amount_minor: 4, adjustment: { adjustment_id: refund.adjustment!.adjustment_id, request_id: events[1]!.request_id } });
    // The refund is numbered after the record it refunds, which the feed shows refunded.
    const refunded = ours.find((e) => e.usage?.request_id === events[1]!.request_id)!;
    expect(r.seq).toBeGreaterThan(refunded.seq);
    expect(refunded).toMatchObject({ amount_minor: -10, external_customer_id: `cus_${a}`, usage: { refunded_minor: 4, feed_seq: refunded.seq } });
    // The month a record belongs to is the one it was received in, in its organization's time zone.
    const paris = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/Paris", year: "numeric", month: "2-digit" }).format(new Date(events[1]!.created_at_ms)).slice(0, 7);
    expect(refunded.month).toBe(paris);

    // Resumed from the middle (pages of 50, and a limit): the rest, once.
    const mid = seqs[Math.floor(seqs.length / 2)]!;
    const rest = await readAll(f.client, mid);
    expect(rest.entries.map((e) => e.seq)).toEqual(seqs.filter((s) => s > mid));
    const limited = await readAll(f.client, start, 7);
    expect(limited.entries.map((e) => e.seq)).toEqual(seqs.slice(0, 7));
    expect(limited.resume).toBe(seqs[6]);
  });

  it("never serves past a transaction still open: the late entry comes in order once it commits, and a reader that resumed does not skip it", async () => {
    const o = org();
    await f.client.TopUp({ org_id: o, amount_minor: 10_000, idempotency_key: `feed-late-top-${o}` });
    const l = await f.client.AcquireLease({ org_id: o, lease_id: "", holder: "feed", amount_minor: 5_000, min_amount_minor: 5_000, ttl_ms: 60_000, monthly_budget_minor: 0 });
    const { resume: start } = await readAll(f.client, 0);
    // Usage applied before the transaction below takes its number: served whatever it does.
    const early = Array.from({ length: 5 }, () => usageEvent(o, l.lease_id, 5));
    for (const ev of early) await publish(ev);
    await drained(f.nc);
    await eventually(async () => ((await readAll(f.client, start)).entries.filter((e) => e.org_id === o && e.kind === "usage").length === 5 ? true : undefined), 10_000, "early usage served");
    // A transaction that drew a number and has not committed (an adjustment held open).
    const held = new pg.Client({ connectionString: f.env.LEDGER_DATABASE_URL });
    await held.connect();
    let open = true;
    try {
      await held.query("SET search_path = ledger");
      await held.query("BEGIN");
      const late = await held.query<{ feed_seq: string }>(
        `INSERT INTO adjustments (id, org_id, kind, amount_minor, period, made_by, idempotency_key) VALUES ('adj_late_${o}', $1, 'credit_limit', 0, '2026-11', 'test', 'late-${o}') RETURNING feed_seq`,
        [o],
      );
      const lateSeq = Number(late.rows[0]!.feed_seq);
      // Usage applied after it, with higher numbers, commits first.
      const events = Array.from({ length: 20 }, () => usageEvent(o, l.lease_id, 5));
      for (const ev of events) await publish(ev);
      await drained(f.nc);
      const before = await readAll(f.client, start);
      expect(before.entries.filter((e) => e.org_id === o && e.kind === "usage")).toHaveLength(5);
      expect(before.entries.every((e) => e.seq < lateSeq)).toBe(true);
      expect(before.resume).toBeLessThan(lateSeq);
      // The view for direct readers holds back the same way.
      const view = await sql<{ seq: string; kind: string; org_id: string }>`SELECT seq, kind, org_id FROM billing_feed WHERE seq > ${start}`.execute(f.ledger.db);
      expect(view.rows.filter((v) => v.org_id === o && v.kind === "usage")).toHaveLength(5);
      expect(view.rows.every((v) => Number(v.seq) < lateSeq)).toBe(true);

      await held.query("COMMIT");
      open = false;
      const after = await eventually(
        async () => {
          const r = await readAll(f.client, before.resume);
          return r.entries.some((e) => e.seq === lateSeq) && r.entries.filter((e) => e.kind === "usage" && e.org_id === o).length === 20 ? r : undefined;
        },
        10_000,
        "the late entry and the usage after it served",
      );
      expect(after.entries[0]!.seq).toBe(lateSeq);
      expect(after.entries.map((e) => e.seq)).toEqual(after.entries.map((e) => e.seq).sort((x, y) => x - y));
    } finally {
      if (open) await held.query("ROLLBACK").catch(() => undefined);
      await held.end();
    }
  });

  it("with two ledgers applying at once and adjustments between, a follower that resumes page by page gets every entry once, in order", async () => {
    const second: Ledger = createLedger(loadConfig({ ...f.env, LEDGER_FEED_WATERMARK_MS: "50" }));
    await second.start();
    const client2 = createClient(ledgerService(), `127.0.0.1:${second.grpcPort}`, { timeoutMs: 10_000, metadata: { authorization: `Bearer ${FIXTURE_TOKEN}` } });
    try {
      const { resume: start } = await readAll(f.client, 0);
      const orgs = [org(), org(), org()];
      const leases: string[] = [];
      for (const o of orgs) {
        await f.client.TopUp({ org_id: o, amount_minor: 1_000_000, idempotency_key: `feed-race-${o}` });
        leases.push((await f.client.AcquireLease({ org_id: o, lease_id: "", holder: "feed", amount_minor: 500_000, min_amount_minor: 500_000, ttl_ms: 60_000, monthly_budget_minor: 0 })).lease_id);
      }
      // A follower reading while everything is written, resuming from each page's cursor.
      const seen: FeedEntry[] = [];
      let cursor = start;
      let writing = true;
      const follower = (async () => {
        while (writing || cursor < (await f.ledger.ctx.feedWatermark.advance(500))) {
          const r = await readAll(client2, cursor, 37);
          seen.push(...r.entries);
          cursor = r.resume;
        }
      })();
      const events = Array.from({ length: 1_500 }, (_, i) => usageEvent(orgs[i % 3]!, leases[i % 3]!, 1));
      const credits: Promise<unknown>[] = [];
      for (const [i, ev] of events.entries()) {
        await publish(ev);
        if (i % 100 === 0) {
          credits.push(f.client.IssueCreditNote({ org_id: orgs[i % 3]!, amount_minor: 1, reason: "r", operator: "o", idempotency_key: `feed-race-cn-${i}-${orgs[0]}`, period: "", reference: "" }));
        }
      }
      await Promise.all(credits);
      await drained(f.nc);
      writing = false;
      await follower;
      const ours = seen.filter((e) => orgs.includes(e.org_id));
      expect(ours.filter((e) => e.kind === "usage")).toHaveLength(1_500);
      expect(ours.filter((e) => e.kind === "credit_note")).toHaveLength(15);
      const seqs = seen.map((e) => e.seq);
      expect(new Set(seqs).size).toBe(seqs.length);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      // Nothing the feed holds past the start was missed.
      expect(seqs).toEqual((await readAll(f.client, start)).entries.map((e) => e.seq));
      expect(await bookViolations(f.ledger.db)).toEqual([]);
    } finally {
      client2.close();
      await second.stop();
    }
  });
});
