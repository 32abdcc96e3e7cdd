import { randomBytes } from "node:crypto";
import { jetstream } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { LEDGER_ALERT_SUBJECT, LEDGER_STREAM, LedgerAlertV1, USAGE_SUBJECT, encodeEvent, type UsageEventV1 } from "@gateway/events";
import { GatewayError } from "@gateway/errors";
import { createLedger, loadConfig, type Ledger } from "@gateway/ledger";
import { createLogger } from "@gateway/observability";
import { createClient, ledgerService, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { createDatabase, eventually, freePort, startNats, testPgUrl, type NatsHandle } from "@gateway/testing";
import { LeaseManager, type BudgetClaim, type Reservation } from "@gateway/data-plane";

/**
 * The lease manager against the real ledger (Postgres, NATS), as the hold rule depends on it: two
 * replicas reserving concurrently never hold more than the balance, and whatever they hold is held at
 * the ledger; a reservation beyond the local lease extends it at the ledger; an idle lease goes back
 * with what it consumed; a monthly budget refuses as budget_exceeded, the balance as
 * insufficient_credits. And its rare branches: a lease the ledger no longer has is replaced, a lease
 * about to expire is not reserved from, a tight lease goes back as soon as it is idle, the replica's
 * lease table stays within its bound, and a reservation settled twice counts once.
 */
const TOKEN = "lease-manager-ledger-admin-token";
let nats: NatsHandle;
let ledger: Ledger;
let client: TypedClient<LedgerServiceMethods>;
let n = 0;
const log = createLogger({ service: "test", level: "silent" });
const managers: LeaseManager[] = [];

beforeAll(async () => {
  const url = await createDatabase(testPgUrl(), "lease_manager_ledger");
  nats = await startNats();
  const port = await freePort();
  ledger = createLedger(
    loadConfig({
      LEDGER_DATABASE_URL: url,
      LEDGER_MIGRATE_ON_START: "true",
      LEDGER_NATS_URL: nats.url,
      LEDGER_GRPC_PORT: String(port),
      LEDGER_OPS_PORT: "0",
      LEDGER_ADMIN_TOKEN: TOKEN,
      LEDGER_LOG_LEVEL: "silent",
      LEDGER_USAGE_ARRIVAL_MS: "0",
    }),
  );
  await ledger.start();
  client = createClient(ledgerService(), `127.0.0.1:${port}`, { timeoutMs: 5_000, metadata: { authorization: `Bearer ${TOKEN}` } });
});

afterAll(async () => {
  for (const m of managers) await m.stop();
  client?.close();
  await ledger?.stop();
  await nats?.stop();
});

const holdsOf = async (org: string) => (await client.ListHolds({ org_id: org })).leases;

/** A replica's lease manager on the real ledger. */
function replica(holder: string, opts: { chunkMinor?: number; idleMs?: number; maxOrgs?: number; ttlMs?: number } = {}): LeaseManager {
  const m = new LeaseManager({ acquire: (r) => client.AcquireLease(r), release: (r) => client.ReleaseLease(r) }, log, {
    holder,
    chunkMinor: opts.chunkMinor ?? 100,
    ttlMs: opts.ttlMs ?? 30_000,
    idleMs: opts.idleMs ?? 60_000,
    maxOrgs: opts.maxOrgs ?? 100,
  });
  managers.push(m);
  return m;
}

async function funded(balance: number): Promise<string> {
  const org = `org_lm_${process.pid}_${n++}`;
  await client.TopUp({ org_id: org, amount_minor: balance, idempotency_key: `lm-${org}` });
  return org;
}

describe("the lease manager on the real ledger", () => {
  it("two replicas reserving 60 requests at once never reserve more than the balance, and the ledger holds at least what they reserved", async () => {
    const org = await funded(1_000);
    const [a, b] = [replica("lm-a"), replica("lm-b")];
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).reserve(org, 37)));
    const held = results.filter((r): r is PromiseFulfilledResult<Reservation> => r.status === "fulfilled").map((r) => r.value);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as GatewayError);
    // 1,000 / 37 = 27 requests fit; the rest are refused for credit, not for anything else.
    expect(held.length * 37).toBeLessThanOrEqual(1_000);
    expect(held.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.code === "insufficient_credits")).toBe(true);
    const atLedger = await client.GetCredits({ org_id: org });
    expect(atLedger.held_minor).toBeGreaterThanOrEqual(held.length * 37);
    expect(atLedger.held_minor).toBeLessThanOrEqual(1_000);
  });

  it("a reservation beyond the local lease extends the same lease at the ledger", async () => {
    const org = await funded(10_000);
    const m = replica("lm-extend", { chunkMinor: 50 });
    const first = await m.reserve(org, 40);
    const second = await m.reserve(org, 300);
    expect(second.leaseId).toBe(first.leaseId);
    const leases = (await client.ListHolds({ org_id: org })).leases;
    expect(leases).toHaveLength(1);
    expect(leases[0]!.granted_minor).toBeGreaterThanOrEqual(340);
  });

  it("an idle lease goes back to the ledger with what its requests consumed; the rest of the hold is freed", async () => {
    const org = await funded(5_000);
    const m = replica("lm-idle", { idleMs: 100 });
    m.start();
    const r = await m.reserve(org, 200);
    r.settle(120);
    // The usage event of those 120 never comes here: the ledger keeps holding them until it does.
    await eventually(
      async () => {
        const l = (await client.ListHolds({ org_id: org })).leases[0];
        return l && l.status === "released" ? l : undefined;
      },
      10_000,
      "the idle lease released",
    );
    expect((await client.GetCredits({ org_id: org })).held_minor).toBe(120);
  });

  it("a monthly budget below the request is budget_exceeded; a balance below it is insufficient_credits", async () => {
    const org = await funded(10_000);
    const m = replica("lm-budget");
    const overBudget = await m.reserve(org, 600, 500).catch((e: unknown) => e);
    expect(overBudget).toBeInstanceOf(GatewayError);
    expect((overBudget as GatewayError).code).toBe("budget_exceeded");
    const poor = await funded(100);
    const overBalance = await m.reserve(poor, 150).catch((e: unknown) => e);
    expect((overBalance as GatewayError).code).toBe("insufficient_credits");
    expect((await client.GetCredits({ org_id: poor })).held_minor).toBe(0);
  });

  it("replaces a lease the ledger no longer has (released or expired there) with a new one, and the old one stays released", async () => {
    const org = await funded(10_000);
    const m = replica("lm-gone", { chunkMinor: 100 });
    const first = await m.reserve(org, 60);
    first.settle(60);
    // The ledger lets the lease go behind the replica's back (as an expiry while it was partitioned would).
    await client.ReleaseLease({ lease_id: first.leaseId, org_id: org, consumed_minor: 60 });
    // More than the local lease has free: the extension finds it gone and opens another.
    const second = await m.reserve(org, 500);
    expect(second.leaseId).not.toBe(first.leaseId);
    const holds = await holdsOf(org);
    expect(holds.find((l) => l.lease_id === first.leaseId)?.status).toBe("released");
    expect(holds.find((l) => l.lease_id === second.leaseId)).toMatchObject({ status: "open" });
    expect(holds.find((l) => l.lease_id === second.leaseId)!.granted_minor).toBeGreaterThanOrEqual(500);
  });

  it("does not reserve from a lease within a second of its expiry: a new lease serves the request", async () => {
    const org = await funded(10_000);
    const m = replica("lm-expiring", { chunkMinor: 1_000, ttlMs: 1_200 });
    const first = await m.reserve(org, 10);
    first.settle(10);
    // The lease's last second arrives: local reservations stop (each probe settled at once).
    await eventually(
      () => {
        const probe = m.reserveLocal(org, 10);
        probe?.settle(0);
        return probe ? undefined : true;
      },
      10_000,
      "the lease within a second of its expiry",
    );
    // Refused while the ledger still had the lease open, not at its expiry.
    const still = (await holdsOf(org)).find((l) => l.lease_id === first.leaseId)!;
    expect(still.status).toBe("open");
    expect(still.expires_at_ms).toBeGreaterThan(Date.now());
    const second = await m.reserve(org, 10);
    expect(second.leaseId).not.toBe(first.leaseId);
  });

  it("hands a tight lease (the org had less than a chunk left) back as soon as its last request settles, not after the idle time", async () => {
    const org = await funded(300);
    const m = replica("lm-tight", { chunkMinor: 1_000, idleMs: 600_000 });
    const r = await m.reserve(org, 100);
    r.settle(80);
    await eventually(async () => ((await holdsOf(org)).some((l) => l.lease_id === r.leaseId && l.status === "released") ? true : undefined), 10_000, "the tight lease handed back");
    // What its request consumed stays held until the usage event is applied; the rest is free again.
    expect((await client.GetCredits({ org_id: org })).held_minor).toBe(80);
  });

  it("keeps at most maxOrgs leases: a new organization's lease retires an idle one, which goes back to the ledger", async () => {
    const [a, b, c] = [await funded(5_000), await funded(5_000), await funded(5_000)];
    const m = replica("lm-bound", { maxOrgs: 2 });
    const ra = await m.reserve(a, 50);
    ra.settle(50);
    const rb = await m.reserve(b, 50);
    const rc = await m.reserve(c, 50);
    await m.maintain();
    // a's lease was idle: retired and released with what it consumed; b's (a request in flight) and c's stay.
    expect((await holdsOf(a)).map((l) => l.status)).toEqual(["released"]);
    expect((await holdsOf(b)).map((l) => l.status)).toEqual(["open"]);
    expect((await holdsOf(c)).map((l) => l.status)).toEqual(["open"]);
    expect(m.reserveLocal(a, 1)).toBeUndefined();
    rb.settle(50);
    rc.settle(50);
  });

  it("counts a reservation settled twice once: the release tells the ledger what was consumed, not twice that", async () => {
    const org = await funded(5_000);
    const m = replica("lm-twice");
    const r = await m.reserve(org, 200);
    r.settle(120);
    r.settle(120);
    await m.stop();
    const holds = await holdsOf(org);
    expect(holds.map((l) => l.status)).toEqual(["released"]);
    // The ledger keeps 120 for the usage event on its way, not 240.
    expect((await client.GetCredits({ org_id: org })).held_minor).toBe(120);
  });
});

/** Budgets (docs/billing.md, "Budgets"): leased per (organization, scope) like credit, spent by the usage they held. */
describe("budget leases on the real ledger", () => {
  const claim = (scope: string, limitMinor: number, window = "day", timeZone = "UTC"): BudgetClaim => ({ scope, limitMinor, window, timeZone });
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: nats.url });
  });
  afterAll(async () => {
    await nc?.close();
  });

  /** Bills `costMinor` of a reservation as a data-plane does: a usage event naming its credit and budget leases. */
  async function bill(org: string, r: Reservation, costMinor: number, endUser?: string): Promise<string> {
    const requestId = `req_budget${randomBytes(10).toString("hex")}`;
    const event: UsageEventV1 = {
      version: 1,
      request_id: requestId,
      org_id: org,
      key_id: "key_budget",
      model: "gw-chat-mini",
      route: "chat",
      provider: "fake",
      upstream_model: "fake-chat",
      lease_id: r.leaseId,
      ...(r.budgetLeaseIds?.length ? { budget_leases: [...r.budgetLeaseIds] } : {}),
      ...(endUser ? { end_user: endUser } : {}),
      usage: { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, estimated: false },
      input_price_minor_per_mtok: 0,
      output_price_minor_per_mtok: 0,
      cost_minor: costMinor,
      line_items: [],
      guardrails: [],
      attempts: [],
      stream: true,
      status: 200,
      created_at_ms: Date.now(),
      duration_ms: 1,
    };
    await jetstream(nc).publish(USAGE_SUBJECT, encodeEvent(event), { msgID: requestId });
    r.settle(costMinor);
    return requestId;
  }
  const budgets = async (org: string) => Object.fromEntries((await client.ListBudgets({ org_id: org, scope: "" })).windows.map((w) => [w.scope, w]));

  it("two replicas reserving 60 requests at once under a key budget never hold more than it, and refuse naming the key's budget", async () => {
    const org = await funded(1_000_000);
    const [a, b] = [replica("bl-a"), replica("bl-b")];
    const key = [claim("key:key_1", 1_000)];
    const results = await Promise.allSettled(Array.from({ length: 60 }, (_, i) => (i % 2 ? a : b).reserve(org, 37, 0, key)));
    const held = results.filter((r): r is PromiseFulfilledResult<Reservation> => r.status === "fulfilled").map((r) => r.value);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected").map((r) => r.reason as GatewayError);
    expect(held.length * 37).toBeLessThanOrEqual(1_000);
    expect(held.length).toBeGreaterThan(0);
    expect(refused.length).toBeGreaterThan(0);
    expect(refused.every((e) => e.code === "budget_exceeded" && e.context.budget === "key")).toBe(true);
    expect(refused[0]!.message).toMatch(/^This API key's daily budget is reached/);
    const w = (await budgets(org))["key:key_1"]!;
    expect(w.held_minor).toBeGreaterThanOrEqual(held.length * 37);
    expect(w.held_minor).toBeLessThanOrEqual(1_000);
    // The credit is untouched by the refusals: it held for the admitted ones only.
    expect((await client.GetCredits({ org_id: org })).held_minor).toBeLessThan(1_000_000);
  });

  it("a burst on one replica that the budget and the credit can cover is served whole: no request is told the budget is spoken for while it has room", async () => {
    const org = await funded(30 * 37);
    const m = replica("bl-burst");
    const key = [claim("key:key_burst", 1_000), claim("user:carol", 2_000)];
    const results = await Promise.allSettled(Array.from({ length: 27 }, () => m.reserve(org, 37, 0, key)));
    expect(results.filter((r) => r.status === "rejected").map((r) => (r as PromiseRejectedResult).reason.message)).toEqual([]);
    const w = (await budgets(org))["key:key_burst"]!;
    expect(w.held_minor).toBeGreaterThanOrEqual(27 * 37);
    expect(w.held_minor).toBeLessThanOrEqual(1_000);
    // One more than the budget holds is refused, naming it.
    await expect(m.reserve(org, 37, 0, key)).rejects.toMatchObject({ code: "budget_exceeded", context: { budget: "key" } });
  });

  it("a request under several budgets is refused by the smallest, named; what it spends is spent from each, and the holds go back", async () => {
    const org = await funded(1_000_000);
    const m = replica("bl-spend");
    const claims = [claim("org", 100_000, "month"), claim("key:key_2", 50_000, "week"), claim("user:alice@example.com", 800)];
    const tooMuch = await m.reserve(org, 900, 0, claims).catch((e: unknown) => e);
    expect(tooMuch).toMatchObject({ code: "budget_exceeded", context: { budget: "end_user" } });
    expect((tooMuch as GatewayError).message).toMatch(/^End user 'alice@example.com''s daily budget is reached \(800 left of 800, needed 900/);
    const r = await m.reserve(org, 500, 0, claims);
    expect(r.budgetLeaseIds).toHaveLength(3);
    await bill(org, r, 420, "alice@example.com");
    await eventually(async () => ((await budgets(org))["user:alice@example.com"]?.spent_minor === 420 ? true : undefined), 10_000, "the spend applied to the end user's budget");
    const after = await budgets(org);
    for (const scope of ["org", "key:key_2", "user:alice@example.com"]) expect(after[scope]!.spent_minor).toBe(420);
    // Now 380 are left of the end user's 800: 400 more is refused, 300 is not.
    await expect(m.reserve(org, 400, 0, claims)).rejects.toMatchObject({ code: "budget_exceeded", context: { budget: "end_user" } });
    const next = await m.reserve(org, 300, 0, claims);
    next.settle(0);
    await m.stop();
    // Released: nothing is held of any budget once their usage is applied.
    await eventually(async () => (Object.values(await budgets(org)).every((w) => w.held_minor === 0) ? true : undefined), 10_000, "the budget holds released");
    const record = await client.ListUsage({ org_id: org, limit: 10, key_id: "", model: "", route: "", status: 0, from_ms: 0, to_ms: 0, cursor: "" });
    expect(record.records[0]).toMatchObject({ end_user: "alice@example.com", cost_minor: 420 });
  });

  it("a video job's dedicated hold is under each of its budgets, all or none, and its budget leases stay their window's past its end", async () => {
    const org = await funded(1_000_000);
    const m = replica("bl-dedicated");
    const claims = [claim("key:key_v", 1_000), claim("user:bob", 500, "month")];
    // The end user's budget cannot cover 600: refused naming it, and nothing is left held anywhere.
    await expect(m.dedicated.hold(org, 600, 0, undefined, claims)).rejects.toMatchObject({ code: "budget_exceeded", context: { budget: "end_user" } });
    await eventually(async () => ((await client.GetCredits({ org_id: org })).held_minor === 0 ? true : undefined), 5_000, "the credit given back");
    expect((await budgets(org))["key:key_v"]).toMatchObject({ held_minor: 0, spent_minor: 0 });
    const r = await m.dedicated.hold(org, 400, 0, undefined, claims);
    expect(r.budgetHolds?.map((h) => h.scope)).toEqual(["key:key_v", "user:bob"]);
    const held = await budgets(org);
    expect([held["key:key_v"]!.held_minor, held["user:bob"]!.held_minor]).toEqual([400, 400]);
    // A shared lease is renewed up to its window's end at most; a dedicated one has none (it is its window's until released).
    const ends = await ledger.db
      .selectFrom("leases")
      .select(["id", "window_end"])
      .where("id", "in", [...r.budgetLeaseIds!])
      .execute();
    expect(ends.map((e) => e.window_end)).toEqual([null, null]);
    expect(await m.dedicated.renew(org, r.budgetLeaseIds![0]!)).toBe("renewed");
    // Billed like a job: its cost spent from each budget once, its leases released with what they consumed.
    await bill(org, r, 350, "bob");
    await Promise.all([r.leaseId, ...r.budgetLeaseIds!].map((id) => m.dedicated.release(org, id, 350)));
    await eventually(
      async () => {
        const w = await budgets(org);
        return w["key:key_v"]?.spent_minor === 350 && w["user:bob"]?.spent_minor === 350 && w["key:key_v"]?.held_minor === 0 && w["user:bob"]?.held_minor === 0 ? true : undefined;
      },
      10_000,
      "spent once from each budget, nothing held",
    );
  });

  it("starts a day at midnight in the organization's time zone, and refuses a zone that does not exist", async () => {
    const org = await funded(10_000);
    const m = replica("bl-zone");
    const r = await m.reserve(org, 10, 0, [claim("org", 5_000, "day", "Pacific/Kiritimati")]);
    r.settle(0);
    const w = (await budgets(org)).org!;
    expect(w.window_end_ms - w.window_start_ms).toBe(24 * 3_600_000);
    expect(w.window_start_ms).toBeLessThanOrEqual(Date.now());
    expect(w.window_end_ms).toBeGreaterThan(Date.now());
    const local = new Intl.DateTimeFormat("en-GB", { timeZone: "Pacific/Kiritimati", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).format(new Date(w.window_start_ms));
    expect(local).toBe("00:00");
    // Its leases end with the window at the latest.
    expect((await holdsOf(org)).find((l) => l.scope === "org")!.expires_at_ms).toBeLessThanOrEqual(w.window_end_ms);
    await expect(m.reserve(org, 10, 0, [claim("org", 5_000, "day", "Mars/Olympus_Mons")])).rejects.toMatchObject({ code: "invalid_request" });
    await m.stop();
  });

  it("holds in tranches under a budget: random budgets and answer lengths on two replicas never spend past the budget, and every answer is billed once", async () => {
    const org = await funded(100_000_000);
    const [a, b] = [replica("bl-tr-a", { chunkMinor: 500 }), replica("bl-tr-b", { chunkMinor: 500 })];
    let seed = 7;
    const random = (n: number) => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed % n;
    };
    for (let round = 0; round < 4; round++) {
      const limit = 2_000 + random(8_000);
      const scope = `user:u${round}`;
      const claims = [claim(scope, limit, "none")];
      const billed: Promise<string>[] = [];
      let total = 0;
      await Promise.all(
        Array.from({ length: 12 }, async (_, i) => {
          const m = i % 2 ? a : b;
          const tranche = 100 + random(300);
          const answer = random(3_000);
          const r = await m.reserve(org, tranche, 0, claims).catch(() => undefined);
          if (!r) return;
          // The stream extends its hold a tranche at a time until the answer is done or a tranche is refused.
          let grown = true;
          while (r.amount < answer && grown) grown = (await r.grow!(tranche)) === true;
          const cost = Math.min(answer, r.amount);
          total += cost;
          billed.push(bill(org, r, cost));
        }),
      );
      const ids = await Promise.all(billed);
      const w = await eventually(
        async () => {
          const records = await Promise.all(ids.map((id) => client.GetUsage({ org_id: org, request_id: id, wait_ms: 0 }).catch(() => undefined)));
          return records.every(Boolean) ? (await budgets(org))[scope] : undefined;
        },
        10_000,
        "every answer billed",
      );
      expect(w.spent_minor).toBe(total);
      expect(w.spent_minor).toBeLessThanOrEqual(limit);
    }
    await a.stop();
    await b.stop();
  });
});

/** Alerts (docs/billing.md, "Alerts"): a crossed threshold is announced on ledger.v1.alert once the spend that crossed it is durable, once. */
describe("alerts from the real ledger", () => {
  let nc: NatsConnection;
  beforeAll(async () => {
    nc = await connect({ servers: nats.url });
  });
  afterAll(async () => {
    await nc?.close();
  });

  /** The alerts published for `org` so far, read from the LEDGER stream. */
  async function alertsOf(org: string): Promise<LedgerAlertV1[]> {
    const c = await jetstream(nc).consumers.get(LEDGER_STREAM, { filter_subjects: LEDGER_ALERT_SUBJECT });
    const out: LedgerAlertV1[] = [];
    for (;;) {
      const m = await c.next({ expires: 1_000 });
      if (!m) break;
      const ev = LedgerAlertV1.parse(m.json());
      if (ev.org_id === org) out.push(ev);
    }
    return out;
  }

  it("announces each budget percentage and each balance threshold once, after the spend that crossed them is applied", async () => {
    const org = await funded(10_000);
    const m = replica("al-a");
    const claims: BudgetClaim[] = [{ scope: "key:key_al", limitMinor: 4_000, window: "month", timeZone: "UTC", alertPcts: [50, 80, 100] }];
    const spend = async (cost: number, under = claims) => {
      const r = await m.reserve(org, cost, 0, under, [8_000, 5_000]);
      await publishUsage(nc, org, r, cost);
    };
    // 1,000 spent: 25 % of the key's budget, balance 9,000: nothing crossed.
    await spend(1_000);
    // 2,400 more: 85 % (50 and 80 crossed in one batch), balance 6,600 (8,000 crossed).
    await spend(2_400);
    const alerts = await eventually(
      async () => {
        const a = await alertsOf(org);
        return a.length >= 3 ? a : undefined;
      },
      10_000,
      "three alerts",
    );
    expect(
      alerts
        .filter((a) => a.kind === "budget")
        .map((a) => a.threshold_pct)
        .sort(),
    ).toEqual([50, 80]);
    expect(alerts.find((a) => a.kind === "budget")).toMatchObject({ scope: "key:key_al", limit_minor: 4_000, spent_minor: 3_400 });
    expect(alerts.filter((a) => a.kind === "balance")).toEqual([expect.objectContaining({ threshold_minor: 8_000, balance_minor: 6_600 })]);
    // Another small spend crosses nothing new: no repeat.
    await spend(100);
    await new Promise((r) => setTimeout(r, 500));
    expect((await alertsOf(org)).length).toBe(3);
    // A top-up above 8,000 re-arms it; spending back below announces it again, under a new id.
    await client.TopUp({ org_id: org, amount_minor: 5_000, idempotency_key: `al-top-${org}` });
    await spend(3_500, []);
    const again = await eventually(
      async () => {
        const a = (await alertsOf(org)).filter((x) => x.kind === "balance" && x.threshold_minor === 8_000);
        return a.length === 2 ? a : undefined;
      },
      10_000,
      "the balance threshold announced again after a top-up",
    );
    expect(new Set(again.map((a) => a.alert_id)).size).toBe(2);
    await m.stop();
  });
});

/** Publishes a usage event billing `costMinor` of a reservation (a data-plane's, unsigned: this ledger takes unsigned usage) and settles it. */
async function publishUsage(nc: NatsConnection, org: string, r: Reservation, costMinor: number): Promise<string> {
  const requestId = `req_int${randomBytes(10).toString("hex")}`;
  const event: UsageEventV1 = {
    version: 1,
    request_id: requestId,
    org_id: org,
    key_id: "key_int",
    model: "gw-chat-mini",
    route: "chat",
    provider: "fake",
    upstream_model: "fake-chat",
    lease_id: r.leaseId,
    ...(r.budgetLeaseIds?.length ? { budget_leases: [...r.budgetLeaseIds] } : {}),
    usage: { input_tokens: 1, output_tokens: 1, cached_input_tokens: 0, estimated: false },
    input_price_minor_per_mtok: 0,
    output_price_minor_per_mtok: 0,
    cost_minor: costMinor,
    line_items: [],
    guardrails: [],
    attempts: [],
    stream: true,
    status: 200,
    created_at_ms: Date.now(),
    duration_ms: 1,
  };
  await jetstream(nc).publish(USAGE_SUBJECT, encodeEvent(event), { msgID: requestId });
  r.settle(costMinor);
  return requestId;
}
