import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sql } from "@gateway/db";
import type { UpdateVideoJobRequestInput, VideoJob } from "@gateway/proto";
import { startTestControlPlane, type TestControlPlane } from "./support.js";

/**
 * The video job records behind holds that cannot lapse (docs/video.md): claims with tokens of their
 * own, due hold renewals handed out once per period, a cost never above the hold.
 */
let t: TestControlPlane;
let orgId: string;
let n = 0;

beforeAll(async () => {
  t = await startTestControlPlane("control_video_jobs", "test-admin-token-0123456789", "test-dp-token-0123456789");
  orgId = (await t.admin.CreateOrg({ name: "video-jobs" })).id;
});
afterAll(async () => {
  await t?.stop();
});

async function newJob(over: Partial<VideoJob> = {}): Promise<VideoJob> {
  const id = `vid_${String(n++).padStart(12, "0")}${"f".repeat(16)}`;
  return t.control.CreateVideoJob({
    id,
    org_id: orgId,
    key_id: "key_x",
    model: "m-video",
    provider: "p1",
    upstream_model: "up-video",
    upstream_job_id: `up-${id}`,
    upstream_json: "{}",
    request_json: '{"prompt":"x"}',
    status: "queued",
    duration_s: 4,
    price_minor_per_second: 100,
    max_cost_minor: 400,
    lease_id: `lease_${id}`,
    resolution: "720p",
    ...over,
  });
}

const claim = (holder: string, jobId: string) => t.control.ClaimVideoJobs({ holder, job_id: jobId, stale_after_ms: 0, claim_ms: 5_000, limit: 1 });
const update = (u: UpdateVideoJobRequestInput) => t.control.UpdateVideoJob(u);

describe("claims", () => {
  it("a replica cannot claim a job again while its own claim is on it: the cancel waits for the completion, which is billed", async () => {
    const job = await newJob();
    const [refresh] = (await claim("dp-a", job.id)).jobs;
    expect(refresh?.claim_token).toMatch(/^[0-9a-f-]{36}$/);
    // The same replica's cancel, while its refresh waits for the provider: no second claim.
    expect((await claim("dp-a", job.id)).jobs).toEqual([]);
    const done = await update({ job_id: job.id, holder: "dp-a", claim_token: refresh!.claim_token, status: "completed", cost_minor: 400, duration_s: 4 });
    expect(done).toMatchObject({ status: "completed", cost_minor: 400, claim_token: refresh!.claim_token });
    await update({ job_id: job.id, holder: "dp-a", claim_token: refresh!.claim_token, release_claim: true });
    // Now the cancel gets the job, and finds it finished: it cannot make it cancelled, nor its cost 0.
    const [cancel] = (await claim("dp-a", job.id)).jobs;
    expect(cancel).toMatchObject({ status: "completed" });
    expect(cancel!.claim_token).not.toBe(refresh!.claim_token);
    const after = await update({ job_id: job.id, holder: "dp-a", claim_token: cancel!.claim_token, status: "cancelled", cost_minor: 0, error_code: "cancelled" });
    expect(after).toMatchObject({ status: "completed", cost_minor: 400, error_code: "" });
  });

  it("a claim that ran out and was taken over cannot write, even from the same replica", async () => {
    const job = await newJob();
    const [first] = (await claim("dp-a", job.id)).jobs;
    // The claim runs out (a provider call longer than the claim), and the same replica claims again.
    await sql`UPDATE video_jobs SET claim_until = now() - interval '1 second' WHERE id = ${job.id}`.execute(t.cp.db);
    const [second] = (await claim("dp-a", job.id)).jobs;
    expect(second).toBeDefined();
    await expect(update({ job_id: job.id, holder: "dp-a", claim_token: first!.claim_token, status: "cancelled", error_code: "cancelled" })).rejects.toThrow(/claimed by another holder/);
    const done = await update({ job_id: job.id, holder: "dp-a", claim_token: second!.claim_token, status: "completed", cost_minor: 400 });
    expect(done.status).toBe("completed");
  });

  it("a released claim's token writes nothing", async () => {
    const job = await newJob();
    const [c] = (await claim("dp-a", job.id)).jobs;
    const released = await update({ job_id: job.id, holder: "dp-a", claim_token: c!.claim_token, release_claim: true });
    expect(released.claim_token).toBe("");
    await expect(update({ job_id: job.id, holder: "dp-a", claim_token: c!.claim_token, status: "failed" })).rejects.toThrow(/claimed by another holder/);
  });
});

describe("cost", () => {
  it("is clamped to the hold, and the seconds to those asked for", async () => {
    const job = await newJob({ max_cost_minor: 400, duration_s: 4 });
    const [c] = (await claim("dp-a", job.id)).jobs;
    const done = await update({ job_id: job.id, holder: "dp-a", claim_token: c!.claim_token, status: "completed", cost_minor: 10_000_000, duration_s: 40 });
    expect(done).toMatchObject({ status: "completed", cost_minor: 400, duration_s: 4 });
  });

  it("refuses a negative or fractional cost", async () => {
    const job = await newJob();
    const [c] = (await claim("dp-a", job.id)).jobs;
    await expect(update({ job_id: job.id, holder: "dp-a", claim_token: c!.claim_token, status: "completed", cost_minor: -5 })).rejects.toThrow(/non-negative integer/);
  });

  it("the table refuses a cost above the hold whoever writes it", async () => {
    const job = await newJob({ max_cost_minor: 400 });
    await expect(sql`UPDATE video_jobs SET cost_minor = 401 WHERE id = ${job.id}`.execute(t.cp.db)).rejects.toThrow(/video_jobs_cost_within_hold/);
  });
});

describe("due holds", () => {
  it("hands every due hold to one caller per period, and again once the period passed, until the job is settled", async () => {
    // Jobs of earlier tests are due too: this test's own are followed.
    const jobs = await Promise.all(Array.from({ length: 30 }, () => newJob()));
    const mine = new Set(jobs.map((j) => j.id));
    const takers = await Promise.all(["dp-a", "dp-b", "dp-c"].map((holder) => t.control.ClaimVideoHolds({ holder, renew_every_ms: 60_000, limit: 500 })));
    const taken = takers.flatMap((r) => r.jobs.map((j) => j.id)).filter((id) => mine.has(id));
    expect(taken.sort()).toEqual([...mine].sort());
    // Within the period nobody gets them again, a refresh's claim notwithstanding.
    await claim("dp-a", jobs[0]!.id);
    expect((await t.control.ClaimVideoHolds({ holder: "dp-d", renew_every_ms: 60_000, limit: 500 })).jobs.filter((j) => mine.has(j.id))).toEqual([]);
    // The period passes (a replica that took them died): due again.
    await sql`UPDATE video_jobs SET hold_due_at = now() - interval '1 millisecond' WHERE id = ANY(${[...mine]}::text[])`.execute(t.cp.db);
    const again = (await t.control.ClaimVideoHolds({ holder: "dp-d", renew_every_ms: 60_000, limit: 500 })).jobs.filter((j) => mine.has(j.id));
    expect(again).toHaveLength(30);
    // A settled job's hold is over.
    const [c] = (await claim("dp-b", jobs[1]!.id)).jobs;
    await update({ job_id: jobs[1]!.id, holder: "dp-b", claim_token: c!.claim_token, status: "failed", settled: true, release_claim: true });
    await sql`UPDATE video_jobs SET hold_due_at = now() - interval '1 millisecond' WHERE id = ANY(${[...mine]}::text[])`.execute(t.cp.db);
    const last = (await t.control.ClaimVideoHolds({ holder: "dp-d", renew_every_ms: 60_000, limit: 500 })).jobs.map((j) => j.id);
    expect(last).not.toContain(jobs[1]!.id);
    expect(last.filter((id) => mine.has(id))).toHaveLength(29);
  });

  it("a job held again names its new lease; a settled one keeps the lease it was settled against", async () => {
    const job = await newJob();
    const [c] = (await claim("dp-a", job.id)).jobs;
    const held = await update({ job_id: job.id, holder: "dp-a", claim_token: c!.claim_token, lease_id: "lease_new" });
    expect(held.lease_id).toBe("lease_new");
    await update({ job_id: job.id, holder: "dp-a", claim_token: c!.claim_token, status: "failed", settled: true });
    const after = await update({ job_id: job.id, holder: "dp-a", claim_token: c!.claim_token, lease_id: "lease_other", release_claim: true });
    expect(after.lease_id).toBe("lease_new");
  });
});
