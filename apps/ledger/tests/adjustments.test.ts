import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { eventually } from "@gateway/testing";
import { sql } from "@gateway/db";
import { bookViolations, startLedgerFixture, usageEvent, type LedgerFixture } from "./support.js";

/**
 * Adjustments (docs/billing.md, "Adjustments") on the real ledger: refunds, credit notes,
 * promotional credit (drawn first, expired without taking what holds cover) and credit limits. Each
 * is idempotent, journaled double-entry and leaves the books holding; every figure is written out.
 */
let f: LedgerFixture;
let n = 0;

const org = () => `org_adj_${process.pid}_${n++}`;
const publish = (ev: UsageEventV1) => f.js.publish(USAGE_SUBJECT, encodeEvent(ev), { msgID: ev.request_id });
const credits = (orgId: string) => f.client.GetCredits({ org_id: orgId });
const topUp = (orgId: string, amount: number) => f.client.TopUp({ org_id: orgId, amount_minor: amount, idempotency_key: `top-${orgId}-${amount}` });
const lease = (orgId: string, amount: number, min = amount) =>
  f.client.AcquireLease({ org_id: orgId, lease_id: "", holder: "adj", amount_minor: amount, min_amount_minor: min, ttl_ms: 60_000, monthly_budget_minor: 0 });
const journal = async (txn: string) =>
  (await sql<{ account: string; amount_minor: string }>`SELECT account, amount_minor FROM journal_entries WHERE txn_id = ${txn} ORDER BY id`.execute(f.ledger.db)).rows.map((r) => [
    r.account,
    Number(r.amount_minor),
  ]);
const accountSum = async (account: string) =>
  Number((await sql<{ s: string }>`SELECT coalesce(sum(amount_minor), 0) AS s FROM journal_entries WHERE account = ${account}`.execute(f.ledger.db)).rows[0]!.s);

/** Publishes a usage event and waits until it is applied. */
async function spend(orgId: string, leaseId: string, cost: number): Promise<UsageEventV1> {
  const ev = usageEvent(orgId, leaseId, cost);
  await publish(ev);
  await f.client.GetUsage({ request_id: ev.request_id, org_id: orgId, wait_ms: 5_000 });
  return ev;
}

async function refused(call: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await call;
  } catch (err) {
    return { code: String((err as { code?: unknown }).code), message: (err as Error).message };
  }
  throw new Error("the call was not refused");
}

beforeAll(async () => {
  f = await startLedgerFixture("ledger_adjustments", { LEDGER_SWEEP_INTERVAL_MS: "50", LEDGER_USAGE_ARRIVAL_MS: "0" });
});

afterAll(async () => {
  await f?.stop();
});

describe("refunds", () => {
  it("give back part, then the rest, of one request: never more than it cost, each key once, journaled against system:refunds", async () => {
    const o = org();
    await topUp(o, 10_000);
    const l = await lease(o, 2_000);
    const ev = await spend(o, l.lease_id, 1_200);
    const part = { org_id: o, request_id: ev.request_id, amount_minor: 500, reason: "answer cut off", operator: "ops@example.com", idempotency_key: `refund-${o}-1` };
    const first = await f.client.RefundUsage(part);
    expect(first).toMatchObject({ duplicate: false, adjustment: { kind: "refund", amount_minor: 500, request_id: ev.request_id, made_by: "admin:ops@example.com", reason: "answer cut off" } });
    expect(first.credits).toMatchObject({ balance_minor: 10_000 - 1_200 + 500, spent_minor: 1_200, adjusted_minor: 500 });
    // The same key again adds nothing; the same key for another amount is refused.
    expect(await f.client.RefundUsage(part)).toMatchObject({ duplicate: true, adjustment: { adjustment_id: first.adjustment!.adjustment_id }, credits: { balance_minor: 9_300 } });
    expect(await refused(f.client.RefundUsage({ ...part, amount_minor: 400 }))).toMatchObject({ code: "already_exists" });
    // More than is left (700) is refused; 0 refunds what is left.
    expect(await refused(f.client.RefundUsage({ ...part, amount_minor: 701, idempotency_key: `refund-${o}-2` }))).toMatchObject({ code: "invalid_request" });
    const rest = await f.client.RefundUsage({ ...part, amount_minor: 0, idempotency_key: `refund-${o}-3` });
    expect(rest.adjustment!.amount_minor).toBe(700);
    expect(rest.credits).toMatchObject({ balance_minor: 10_000, adjusted_minor: 1_200, spent_minor: 1_200 });
    expect(await refused(f.client.RefundUsage({ ...part, amount_minor: 0, idempotency_key: `refund-${o}-4` }))).toMatchObject({ code: "invalid_request" });
    expect(await journal(first.adjustment!.adjustment_id)).toEqual([
      [`org:${o}`, 500],
      ["system:refunds", -500],
    ]);
    // Another organization's request is not found; a refund needs a reason and who made it.
    const other = org();
    expect(await refused(f.client.RefundUsage({ ...part, org_id: other, idempotency_key: `refund-${other}` }))).toMatchObject({ code: "not_found" });
    expect(await refused(f.client.RefundUsage({ ...part, operator: "", idempotency_key: `refund-${o}-5` }))).toMatchObject({ code: "invalid_request" });
    expect(await refused(f.client.RefundUsage({ ...part, reason: "", idempotency_key: `refund-${o}-6` }))).toMatchObject({ code: "invalid_request" });
    expect(await bookViolations(f.ledger.db)).toEqual([]);
  });

  it("racing each other on one request refund at most its cost", async () => {
    const o = org();
    await topUp(o, 10_000);
    const l = await lease(o, 1_000);
    const ev = await spend(o, l.lease_id, 900);
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => f.client.RefundUsage({ org_id: o, request_id: ev.request_id, amount_minor: 200, reason: "race", operator: "ops", idempotency_key: `race-${o}-${i}` })),
    );
    // 900 holds four refunds of 200; the other two are refused.
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(4);
    expect((await credits(o)).adjusted_minor).toBe(800);
    expect(await bookViolations(f.ledger.db)).toEqual([]);
  });
});

describe("credit notes", () => {
  it("credit an amount for a month with a reference, once per key, journaled against system:credit_notes", async () => {
    const o = org();
    await topUp(o, 1_000);
    const req = { org_id: o, amount_minor: 2_500, reason: "SLA credit, November", operator: "billing@example.com", idempotency_key: `cn-${o}`, period: "2026-11", reference: "INV-0042" };
    const r = await f.client.IssueCreditNote(req);
    expect(r).toMatchObject({
      duplicate: false,
      adjustment: { kind: "credit_note", amount_minor: 2_500, period: "2026-11", reference: "INV-0042" },
      credits: { balance_minor: 3_500, adjusted_minor: 2_500 },
    });
    expect((await f.client.IssueCreditNote(req)).duplicate).toBe(true);
    expect((await credits(o)).balance_minor).toBe(3_500);
    expect(await refused(f.client.IssueCreditNote({ ...req, period: "2026-13", idempotency_key: `cn-${o}-x` }))).toMatchObject({ code: "invalid_request" });
    expect(await journal(r.adjustment!.adjustment_id)).toEqual([
      [`org:${o}`, 2_500],
      ["system:credit_notes", -2_500],
    ]);
    // A credit note is not a top-up: topped_up_minor (the trial's unlock) does not move.
    expect((await credits(o)).topped_up_minor).toBe(1_000);
  });
});

describe("promotional credit", () => {
  it("is its own journal account, drawn before paid credit, and not a top-up", async () => {
    const o = org();
    await topUp(o, 500);
    const g = await f.client.GrantPromoCredit({ org_id: o, amount_minor: 1_000, expires_at_ms: 0, reason: "launch promotion", operator: "growth", idempotency_key: `promo-${o}` });
    expect(g.credits).toMatchObject({ balance_minor: 1_500, promo_minor: 1_000, topped_up_minor: 500 });
    expect(await journal(g.adjustment!.adjustment_id)).toEqual([
      [`promo:${o}`, 1_000],
      ["system:promotions", -1_000],
    ]);
    const l = await lease(o, 1_400);
    await spend(o, l.lease_id, 300);
    // The 300 came out of the promotional credit; the paid 500 is whole.
    expect(await credits(o)).toMatchObject({ balance_minor: 1_200, promo_minor: 700 });
    expect(await accountSum(`promo:${o}`)).toBe(700);
    expect(await accountSum(`org:${o}`)).toBe(500);
    // 900 more: the last 700 of promotional credit, then 200 of paid.
    await spend(o, l.lease_id, 900);
    expect(await credits(o)).toMatchObject({ balance_minor: 300, promo_minor: 0, spent_minor: 1_200 });
    expect(await accountSum(`promo:${o}`)).toBe(0);
    expect(await accountSum(`org:${o}`)).toBe(300);
    expect(await bookViolations(f.ledger.db)).toEqual([]);
  });

  it("expires what is left of it, but never what holds cover: that waits until the holds settle", async () => {
    const o = org();
    const g = await f.client.GrantPromoCredit({ org_id: o, amount_minor: 1_000, expires_at_ms: Date.now() + 1_500, reason: "trial boost", operator: "growth", idempotency_key: `promo-exp-${o}` });
    expect(g.credits!.balance_minor).toBe(1_000);
    // 600 held by a lease: only the 400 no hold covers can expire.
    const l = await lease(o, 600);
    await eventually(async () => ((await credits(o)).promo_minor === 600 ? true : undefined), 10_000, "the free 400 expired");
    expect(await credits(o)).toMatchObject({ balance_minor: 600, held_minor: 600 });
    // The lease's request cost 200; released, its last 400 stop being held and expire too.
    await spend(o, l.lease_id, 200);
    await f.client.ReleaseLease({ lease_id: l.lease_id, consumed_minor: 200, org_id: o, holder: "adj" });
    await eventually(async () => ((await credits(o)).promo_minor === 0 ? true : undefined), 10_000, "the rest expired");
    expect(await credits(o)).toMatchObject({ balance_minor: 0, held_minor: 0, spent_minor: 200 });
    const expiries = await f.client.ListAdjustments({ org_id: o, limit: 0 });
    expect(
      expiries.adjustments
        .filter((a) => a.kind === "promo_expiry")
        .map((a) => a.amount_minor)
        .sort(),
    ).toEqual([400, 400]);
    expect(expiries.adjustments.find((a) => a.kind === "promo_grant")).toMatchObject({ expired_minor: 800 });
    expect(await accountSum(`promo:${o}`)).toBe(0);
    expect(await bookViolations(f.ledger.db)).toEqual([]);
  });
});

describe("credit limits", () => {
  it("let a postpaid organization hold and spend down to −limit, and no further", async () => {
    const o = org();
    expect(await refused(lease(o, 1_000))).toMatchObject({ code: "insufficient_credits" });
    const set = await f.client.SetCreditLimit({ org_id: o, credit_limit_minor: 5_000, reason: "invoiced monthly", operator: "sales", idempotency_key: "" });
    expect(set).toMatchObject({ duplicate: false, adjustment: { kind: "credit_limit", amount_minor: 5_000 }, credits: { credit_limit_minor: 5_000, balance_minor: 0 } });
    // Setting the limit it has records nothing more.
    expect((await f.client.SetCreditLimit({ org_id: o, credit_limit_minor: 5_000, reason: "", operator: "sales", idempotency_key: "" })).duplicate).toBe(true);
    const l = await lease(o, 3_000);
    expect(l.granted_minor).toBe(3_000);
    await spend(o, l.lease_id, 2_800);
    // 5,000 − 2,800 spent − 200 still held by the lease: a lease of 2,001 is refused, 2,000 is granted.
    expect(await refused(lease(o, 2_001))).toMatchObject({ code: "insufficient_credits" });
    expect((await lease(o, 2_000)).granted_minor).toBe(2_000);
    const c = await credits(o);
    expect(c).toMatchObject({ balance_minor: -2_800, held_minor: 2_200, credit_limit_minor: 5_000 });
    expect(c.balance_minor - c.held_minor).toBeGreaterThanOrEqual(-5_000);
    // A limit moves no money: no journal transaction.
    expect(await journal(set.adjustment!.adjustment_id)).toEqual([]);
    expect(await bookViolations(f.ledger.db)).toEqual([]);
  });
});
