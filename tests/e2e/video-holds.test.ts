import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import { videoStatusEndpoint } from "@gateway/fake-upstream";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import type { AnyBody } from "../support/api.ts";

/**
 * Video holds that cannot lapse (docs/video.md, "Holds"), on one data-plane replica: leases live
 * 4 s here and every unsettled job's hold is renewed each second by a loop of its own, whatever the
 * provider's status endpoint is doing; a replica never takes a job from under its own claim; a
 * lease the ledger let go is held again, or the job stopped when the balance no longer covers it.
 */
const TTL_MS = 4_000;
/**
 * Running jobs in the first test: more than the reconciler refreshes at once, so a hold renewed only
 * by its refresh would lapse. VIDEO_HOLD_JOBS=300 runs the 300 (alone: in the whole suite,
 * 300 renewals a second compete with every other test for the ledger).
 */
const JOBS = Number(process.env.VIDEO_HOLD_JOBS ?? 60);
const JOB_COST = 4 * 100_000; // gw-video, 4 s at 100,000 a second: held whole, billed whole

let stack: Stack;
beforeAll(async () => {
  stack = await startStack("video_holds", {
    dataPlaneEnv: {
      DATA_PLANE_LEASE_TTL_MS: String(TTL_MS),
      DATA_PLANE_VIDEO_HOLD_RENEW_MS: "1000",
      DATA_PLANE_VIDEO_POLL_STALE_MS: "0",
      DATA_PLANE_VIDEO_RECONCILE_MS: "100",
      DATA_PLANE_VIDEO_STALE_MS: "200",
      // Longer than the slowest status answer below: a claim outlives its refresh.
      DATA_PLANE_VIDEO_CLAIM_MS: "20000",
      DATA_PLANE_VIDEO_REFRESH_CONCURRENCY: "8",
    },
    // Expired leases are marked at once, so a lapse shows in ListHolds; a lapsed lease keeps its
    // hold 5 s past its expiry (its usage could still arrive), then the ledger frees it.
    ledgerEnv: { LEDGER_SWEEP_INTERVAL_MS: "50", LEDGER_USAGE_ARRIVAL_MS: "5000" },
  });
});
afterAll(async () => {
  videoStatusEndpoint.delayMs = 0;
  await stack?.stop();
});

async function call(method: string, path: string, o: TestOrg, body?: unknown) {
  const r = await fetch(`${stack.baseUrl()}${path}`, {
    method,
    headers: { authorization: `Bearer ${o.secret}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  let json: AnyBody = text;
  try {
    json = JSON.parse(text);
  } catch {
    // keep text
  }
  return { status: r.status, body: json };
}
const create = (o: TestOrg, prompt: string) => call("POST", "/video/generations", o, { model: "gw-video", prompt, duration: 4 });
const credits = (o: TestOrg) => stack.ledgerClient.GetCredits({ org_id: o.orgId });
const leaseOf = async (jobId: string) => (await sql<{ lease_id: string }>`SELECT lease_id FROM video_jobs WHERE id = ${jobId}`.execute(stack.control.db)).rows[0]!.lease_id;
/** What a ledger that nobody renewed a lease for does: it expires (the sweeper marks it at once). */
const lapse = (leaseId: string) => sql`UPDATE leases SET expires_at = now() - interval '1 millisecond' WHERE id = ${leaseId}`.execute(stack.ledger().db);

async function eachBounded<T>(items: readonly T[], limit: number, fn: (item: T, i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < items.length) {
        const i = next++;
        await fn(items[i]!, i);
      }
    }),
  );
}

it(`${JOBS} running jobs on one replica whose provider answers status calls in 5 s (longer than a lease lives) keep their holds for two lease lifetimes, then are cancelled and cost nothing`, async () => {
  const o = await createOrg(stack, { balanceMinor: 150_000_000, models: ["gw-video"] });
  videoStatusEndpoint.delayMs = 5_000;
  const ids: string[] = [];
  try {
    await eachBounded(Array.from({ length: JOBS }), 16, async (_, i) => {
      const r = await create(o, `hold ${i} [[fake:video_stuck]]`);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      ids.push(r.body.id);
    });
    const answered = videoStatusEndpoint.answered;
    // Two lease lifetimes from the last create, looking every 250 ms: every hold open and in date,
    // the whole maximum of every job held.
    const end = Date.now() + 2 * TTL_MS;
    let looks = 0;
    while (Date.now() < end) {
      const [holds, c] = await Promise.all([stack.ledgerClient.ListHolds({ org_id: o.orgId }), credits(o)]);
      const now = Date.now();
      const live = holds.leases.filter((l) => l.status === "open" && l.expires_at_ms > now);
      expect(live.length, `leases open and in date at look ${looks}`).toBe(JOBS);
      expect(
        holds.leases.filter((l) => l.status !== "open"),
        "no lease lapsed",
      ).toEqual([]);
      expect(c.held_minor).toBe(JOBS * JOB_COST);
      looks++;
      await new Promise((r) => setTimeout(r, 250));
    }
    expect(looks).toBeGreaterThan(3);
    // The status refreshes could not have kept them: far fewer answers than jobs came back meanwhile.
    expect(videoStatusEndpoint.answered - answered).toBeLessThan(JOBS);
  } finally {
    videoStatusEndpoint.delayMs = 0;
  }
  // The caller cancels them all: each asks the provider first (still running), stops it, costs nothing.
  await eachBounded(ids, 8, async (id) => {
    const c = await eventually(
      async () => {
        const r = await call("POST", `/video/generations/${id}/cancel`, o);
        // 503 while a refresh still waits for one of the slow answers.
        return r.status === 503 ? undefined : r;
      },
      20_000,
      `cancel of ${id}`,
    );
    expect(c.status, JSON.stringify(c.body)).toBe(200);
    expect(c.body).toMatchObject({ status: "cancelled", cost_credits_minor: 0 });
  });
  await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "every hold released");
  expect(await credits(o)).toMatchObject({ balance_minor: 150_000_000, spent_minor: 0, held_minor: 0 });
  // Every submit has its record: nothing billed to the caller, the operator's exposure recorded.
  const records = await eventually(
    async () => {
      const r = await sql<{ n: string; absorbed: string }>`
        SELECT count(*) AS n, sum(absorbed_minor) AS absorbed FROM usage_records WHERE org_id = ${o.orgId} AND cost_minor = 0 AND error_code IS NULL`.execute(stack.ledger().db);
      return Number(r.rows[0]!.n) === JOBS ? r.rows[0]! : undefined;
    },
    15_000,
    `${JOBS} records`,
  );
  expect(Number(records.absorbed)).toBe(JOBS * JOB_COST);
}, 120_000);

it("a cancel racing a completion on the replica that is recording it bills the completion", async () => {
  const o = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-video"] });
  // The provider finishes 1 ms after the submit and answers each status call 0.8 s late.
  const r = await create(o, "same replica [[fake:video_ms=1,video_status_ms=800]]");
  expect(r.status).toBe(200);
  // A poll: this replica claims the job and waits for the provider's answer ("completed").
  const polled = call("GET", `/video/generations/${r.body.id}`, o);
  await eventually(
    async () => ((await sql<{ claimed_by: string | null }>`SELECT claimed_by FROM video_jobs WHERE id = ${r.body.id}`.execute(stack.control.db)).rows[0]?.claimed_by ? true : undefined),
    5_000,
    "the job claimed by a refresh",
  );
  // The caller cancels on the same replica meanwhile: it may not take the job from its own refresh.
  const c = await call("POST", `/video/generations/${r.body.id}/cancel`, o);
  expect(c.status, JSON.stringify(c.body)).toBe(200);
  expect(c.body).toMatchObject({ status: "completed", cost_credits_minor: JOB_COST, error: null });
  expect((await polled).status).toBe(200);
  const usage = await eventually(
    async () => {
      const u = await call("GET", `/usage/${r.body.id}`, o);
      return u.status === 200 ? u.body : undefined;
    },
    20_000,
    "the job's usage record",
  );
  expect(usage).toMatchObject({ cost_credits_minor: JOB_COST, status: 200 });
  await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 20_000, "hold released");
  expect(await credits(o)).toMatchObject({ balance_minor: 10_000_000 - JOB_COST, spent_minor: JOB_COST });
});

it("a job whose lease lapsed at the ledger is held again, and billed once against its new hold", async () => {
  const o = await createOrg(stack, { balanceMinor: 3 * JOB_COST, models: ["gw-video"] });
  const r = await create(o, "lapsed [[fake:video_ms=3000]]");
  expect(r.status).toBe(200);
  const first = await leaseOf(r.body.id);
  await lapse(first);
  const second = await eventually(
    async () => {
      const l = await leaseOf(r.body.id);
      return l !== first ? l : undefined;
    },
    20_000,
    "the job held again",
  );
  const holds = (await stack.ledgerClient.ListHolds({ org_id: o.orgId })).leases;
  expect(holds.find((l) => l.lease_id === second)).toMatchObject({ status: "open", granted_minor: JOB_COST });
  // The lapsed lease keeps its hold until its usage can no longer arrive (docs/billing.md): both held meanwhile.
  expect(holds.find((l) => l.lease_id === first)).toMatchObject({ status: "expired", remaining_minor: JOB_COST });
  const done = await eventually(
    async () => {
      const p = await call("GET", `/video/generations/${r.body.id}`, o);
      return p.body.status === "completed" ? p.body : undefined;
    },
    15_000,
    "completed",
  );
  expect(done.cost_credits_minor).toBe(JOB_COST);
  const billed = await eventually(
    async () => (await sql<{ lease_id: string; cost_minor: string }>`SELECT lease_id, cost_minor FROM usage_records WHERE request_id = ${r.body.id}`.execute(stack.ledger().db)).rows[0],
    20_000,
    "the usage record",
  );
  expect(billed).toMatchObject({ lease_id: second });
  expect(Number(billed.cost_minor)).toBe(JOB_COST);
  // Billed once; the new lease settled, and the lapsed one's hold freed once its usage could no longer arrive.
  await eventually(async () => ((await credits(o)).held_minor === 0 ? true : undefined), 15_000, "both holds settled");
  expect(await credits(o)).toMatchObject({ balance_minor: 2 * JOB_COST, spent_minor: JOB_COST });
});

it("a job whose lease lapsed and whose organization can no longer cover it is stopped at the provider and costs nothing", async () => {
  const o = await createOrg(stack, { balanceMinor: JOB_COST, models: ["gw-video"] });
  const earlier = new Set(stack.fake.requests);
  const r = await create(o, "uncovered [[fake:video_stuck]]");
  expect(r.status).toBe(200);
  // The lapsed lease still holds the whole balance: a new hold cannot be had.
  await lapse(await leaseOf(r.body.id));
  const failed = await eventually(
    async () => {
      const p = await call("GET", `/video/generations/${r.body.id}`, o);
      return p.body.status === "failed" ? p.body : undefined;
    },
    15_000,
    "the job stopped",
  );
  expect(failed).toMatchObject({ cost_credits_minor: 0, error: { code: "hold_lapsed" } });
  // Asked for its status, then told to stop.
  const seen = stack.fake.requests.filter((q) => !earlier.has(q));
  expect(seen.some((q) => q.method === "DELETE" && q.path.startsWith("/v1/videos/"))).toBe(true);
  const usage = await eventually(
    async () => {
      const u = await call("GET", `/usage/${r.body.id}`, o);
      return u.status === 200 ? u.body : undefined;
    },
    20_000,
    "the job's usage record",
  );
  expect(usage).toMatchObject({ cost_credits_minor: 0, status: 402, attempts: [{ outcome: "client_gone", payer: "operator", cost_minor: JOB_COST }] });
  const c = await credits(o);
  expect(c).toMatchObject({ balance_minor: JOB_COST, spent_minor: 0 });
});

describe('video jobs under budgets (docs/billing.md, "Budgets")', () => {
  const windows = async (o: TestOrg) => Object.fromEntries((await stack.ledgerClient.ListBudgets({ org_id: o.orgId, scope: "" })).windows.map((w) => [w.scope, w]));
  const budgetsOf = async (jobId: string) =>
    (await sql<{ budgets: Array<{ lease_id: string; scope: string }> }>`SELECT budgets FROM video_jobs WHERE id = ${jobId}`.execute(stack.control.db)).rows[0]!.budgets;
  const createAs = (o: TestOrg, prompt: string, endUser: string, dryRun = false) =>
    fetch(`${stack.baseUrl()}/video/generations`, {
      method: "POST",
      headers: { authorization: `Bearer ${o.secret}`, "content-type": "application/json", "x-gateway-end-user": endUser, ...(dryRun ? { "x-gateway-dry-run": "true" } : {}) },
      body: JSON.stringify({ model: "gw-video", prompt, duration: 4 }),
    }).then(async (r) => ({ status: r.status, body: (await r.json()) as AnyBody }));

  /** An organization whose key has a daily budget of `keyLimit` and whose end users (from the header) `userLimit` each, seen by the replica. */
  async function budgeted(keyLimit: number, userLimit: number): Promise<TestOrg> {
    const o = await createOrg(stack, { balanceMinor: 20 * JOB_COST, models: ["gw-video"] });
    await stack.admin.SetKeyBudget({ key_id: o.keyId, limit_minor: keyLimit, window: "day" });
    await stack.admin.SetOrgBudgets({ org: o.orgId, end_user_source: "header", end_user_limit_minor: userLimit, end_user_window: "month" });
    await eventually(
      async () => {
        const r = await createAs(o, "dry", "someone", true);
        const scopes = ((r.body.budgets ?? []) as Array<{ scope: string }>).map((b) => b.scope);
        return scopes.includes(`key:${o.keyId}`) && scopes.includes("user:someone") ? true : undefined;
      },
      15_000,
      "the budgets seen by the replica",
    );
    return o;
  }
  const completed = (o: TestOrg, id: string) =>
    eventually(
      async () => {
        const p = await call("GET", `/video/generations/${id}`, o);
        return p.body.status === "completed" ? p.body : undefined;
      },
      20_000,
      `${id} completed`,
    );

  it("concurrent jobs are held under the key's and the end user's budgets: those past the cap are refused naming the budget, and the rest are spent from each budget once", async () => {
    // The dry runs that waited for the budgets left this replica a lease of each: handed back before a job is refused.
    const o = await budgeted(2 * JOB_COST + JOB_COST / 2, 10 * JOB_COST);
    const tries = await Promise.all(Array.from({ length: 5 }, (_, i) => createAs(o, `budgeted ${i} [[fake:video_ms=1500]]`, "vid-user")));
    const admitted = tries.filter((t) => t.status === 200);
    const refused = tries.filter((t) => t.status !== 200);
    expect(admitted).toHaveLength(2);
    for (const t of refused) expect(t).toMatchObject({ status: 402, body: { error: { code: "budget_exceeded", budget: "key" } } });
    // While they run, both budgets hold their whole maximum, on leases of their own.
    const running = await windows(o);
    expect(running[`key:${o.keyId}`]).toMatchObject({ held_minor: 2 * JOB_COST, spent_minor: 0 });
    expect(running["user:vid-user"]).toMatchObject({ held_minor: 2 * JOB_COST });
    for (const t of admitted) expect((await budgetsOf(t.body.id)).map((b) => b.scope).sort()).toEqual([`key:${o.keyId}`, "user:vid-user"]);
    for (const t of admitted) expect(await completed(o, t.body.id)).toMatchObject({ cost_credits_minor: JOB_COST });
    // Billed once into each budget's window, attributed to the end user; nothing left held.
    await eventually(
      async () => {
        const w = await windows(o);
        return w[`key:${o.keyId}`]?.spent_minor === 2 * JOB_COST && w[`key:${o.keyId}`]?.held_minor === 0 && w["user:vid-user"]?.held_minor === 0 ? w : undefined;
      },
      20_000,
      "the jobs spent from their budgets",
    );
    expect((await windows(o))["user:vid-user"]).toMatchObject({ spent_minor: 2 * JOB_COST });
    const usage = await call("GET", `/usage/${admitted[0]!.body.id}`, o);
    expect(usage.body).toMatchObject({ cost_credits_minor: JOB_COST, end_user: "vid-user" });
    expect(await credits(o)).toMatchObject({ spent_minor: 2 * JOB_COST });
  });

  it("a job whose budget lease lapsed at the ledger is held under that budget again, and spent from it once", async () => {
    const o = await budgeted(3 * JOB_COST, 10 * JOB_COST);
    const r = await createAs(o, "budget lapse [[fake:video_ms=3000]]", "lapse-user");
    expect(r.status).toBe(200);
    const before = await budgetsOf(r.body.id);
    const keyHold = before.find((b) => b.scope === `key:${o.keyId}`)!;
    await lapse(keyHold.lease_id);
    const after = await eventually(
      async () => {
        const b = await budgetsOf(r.body.id);
        const k = b.find((x) => x.scope === `key:${o.keyId}`)!;
        return k.lease_id !== keyHold.lease_id ? b : undefined;
      },
      20_000,
      "the key's budget held again",
    );
    // The end user's hold was not touched; the key's is a new lease, and the lapsed one still holds meanwhile.
    expect(after.find((b) => b.scope === "user:lapse-user")).toEqual(before.find((b) => b.scope === "user:lapse-user"));
    expect((await windows(o))[`key:${o.keyId}`]).toMatchObject({ held_minor: 2 * JOB_COST });
    await completed(o, r.body.id);
    await eventually(
      async () => {
        const w = (await windows(o))[`key:${o.keyId}`];
        return w?.spent_minor === JOB_COST && w.held_minor === 0 ? true : undefined;
      },
      20_000,
      "spent once, both holds freed",
    );
    const record = await sql<{ budget_leases: string[] }>`SELECT budget_leases FROM usage_records WHERE request_id = ${r.body.id}`.execute(stack.ledger().db);
    expect(record.rows[0]!.budget_leases).toContain(after.find((b) => b.scope === `key:${o.keyId}`)!.lease_id);
  });

  it("a job whose budget lease lapsed and whose budget can no longer cover it is stopped at the provider and costs nothing", async () => {
    const o = await budgeted(JOB_COST, 10 * JOB_COST);
    const r = await createAs(o, "budget gone [[fake:video_stuck]]", "stuck-user");
    expect(r.status).toBe(200);
    // The lapsed lease still holds the whole budget: it cannot be held again.
    await lapse((await budgetsOf(r.body.id)).find((b) => b.scope === `key:${o.keyId}`)!.lease_id);
    const failed = await eventually(
      async () => {
        const p = await call("GET", `/video/generations/${r.body.id}`, o);
        return p.body.status === "failed" ? p.body : undefined;
      },
      15_000,
      "the job stopped",
    );
    expect(failed).toMatchObject({ cost_credits_minor: 0, error: { code: "hold_lapsed" } });
    // The job's own leases are given back (the replica's lease from the dry runs may still hold credit until it idles).
    // The job reads failed once recorded; its settling releases them right after.
    const jobLeases = [await leaseOf(r.body.id), ...(await budgetsOf(r.body.id)).map((b) => b.lease_id)];
    const open = async () => (await stack.ledgerClient.ListHolds({ org_id: o.orgId })).leases.filter((l) => jobLeases.includes(l.lease_id) && l.status === "open");
    await eventually(async () => ((await open()).length === 0 ? true : undefined), 10_000, "the job's holds released").catch(async (err: Error) => {
      throw new Error(`${err.message}: ${JSON.stringify(await open())}`);
    });
    expect(await credits(o)).toMatchObject({ spent_minor: 0 });
    expect((await windows(o))[`key:${o.keyId}`]).toMatchObject({ spent_minor: 0 });
  });
});
