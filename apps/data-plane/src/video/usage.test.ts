import { describe, expect, it } from "vitest";
import { UsageEventV1 } from "@gateway/events";
import type { VideoJob } from "@gateway/proto";
import { HOLD_LAPSED, jobUsageEvent } from "./usage.js";

const submit = (over: Record<string, unknown> = {}) => ({
  attempt: 1,
  provider: "fake",
  upstream_model: "fake-video",
  status: 200,
  outcome: "served",
  input_tokens: 0,
  output_tokens: 0,
  estimated: false,
  cost_minor: 0,
  provider_cost_minor: 0,
  payer: "caller",
  duration_ms: 40,
  ...over,
});

function job(over: Partial<VideoJob> = {}): VideoJob {
  return {
    id: "vid_019a8f0c2d3e9b1c4d5e6f708192a3b4",
    org_id: "org_1",
    key_id: "key_1",
    model: "gw-video",
    provider: "fake",
    upstream_model: "fake-video",
    upstream_job_id: "video_1",
    upstream_json: "{}",
    request_json: "{}",
    status: "completed",
    progress: 100,
    error_code: "",
    error_message: "",
    outputs_json: "[]",
    duration_s: 8,
    price_minor_per_second: 100_000,
    max_cost_minor: 800_000,
    lease_id: "lease_1",
    cost_minor: 800_000,
    settled: false,
    trace_id: "req_1",
    created_at_ms: 1_000_000,
    updated_at_ms: 1_042_000,
    completed_at_ms: 1_042_000,
    refreshed_at_ms: 1_042_000,
    resolution: "720p",
    audio: false,
    guardrails_json: "[]",
    idempotency_key: "",
    request_hash: "",
    attempts_json: JSON.stringify([submit()]),
    catalog_version: 7,
    claim_token: "",
    budgets_json: "[]",
    attribution_json: "{}",
    ...over,
  };
}

/** The event as the ledger reads it (the schema's own parse), so a record the ledger would refuse fails here. */
const event = (j: VideoJob) => UsageEventV1.parse(JSON.parse(JSON.stringify(jobUsageEvent(j))));

describe("a finished video job's usage event", () => {
  it("bills a completed job its seconds at the job's price, to the caller, keyed by the job id", () => {
    const ev = event(job());
    expect(ev).toMatchObject({
      request_id: "vid_019a8f0c2d3e9b1c4d5e6f708192a3b4",
      route: "video",
      lease_id: "lease_1",
      catalog_version: 7,
      cost_minor: 800_000,
      status: 200,
      line_items: [{ item: "video_seconds", quantity: 8, unit_price_minor: 100_000, per: "second", attributes: { resolution: "720p", audio: "false" } }],
      attempts: [],
      served_attempt: { outcome: "served", duration_ms: 42_000, provider_cost_minor: 800_000 },
    });
  });

  it("a cancelled job costs the caller nothing and records what the provider may bill the operator for its submit: the whole clip", () => {
    const ev = event(job({ status: "cancelled", error_code: "cancelled", cost_minor: 0 }));
    expect(ev).toMatchObject({ cost_minor: 0, line_items: [], status: 499 });
    expect(ev.served_attempt).toBeUndefined();
    expect(ev.attempts).toEqual([submit({ outcome: "client_gone", estimated: true, cost_minor: 800_000, provider_cost_minor: 800_000, payer: "operator", duration_ms: 42_000 })]);
  });

  it("a job the gateway failed after its maximum age, or whose hold lapsed, is the operator's at its worst case", () => {
    const timeout = event(job({ status: "failed", error_code: "timeout", cost_minor: 0 }));
    expect(timeout).toMatchObject({ cost_minor: 0, status: 504 });
    expect(timeout.attempts[0]).toMatchObject({ outcome: "timeout", payer: "operator", provider_cost_minor: 800_000 });
    const lapsed = event(job({ status: "failed", error_code: HOLD_LAPSED, cost_minor: 0 }));
    expect(lapsed).toMatchObject({ cost_minor: 0, status: 402 });
    expect(lapsed.attempts[0]).toMatchObject({ outcome: "client_gone", payer: "operator", provider_cost_minor: 800_000 });
  });

  it("names the budget leases the job is held under and its end user, project and tags, so its cost is spent from each budget", () => {
    const budgets = [
      { lease_id: "lease_key", scope: "key:key_1", limit_minor: 1_000_000, window: "day", time_zone: "Europe/Paris" },
      { lease_id: "lease_user", scope: "user:alice", limit_minor: 2_000_000, window: "month", time_zone: "Europe/Paris", alert_pcts: [50, 100] },
    ];
    const e = jobUsageEvent(job({ budgets_json: JSON.stringify(budgets), attribution_json: JSON.stringify({ endUser: "alice", projectId: "proj_1", tags: ["team:video"] }) }));
    expect(e).toMatchObject({ lease_id: "lease_1", budget_leases: ["lease_key", "lease_user"], end_user: "alice", project_id: "proj_1", tags: ["team:video"], cost_minor: 800_000 });
    expect(UsageEventV1.safeParse(e).success).toBe(true);
    // A job recorded before budgets held video (its columns empty, or not JSON) names none.
    const before = jobUsageEvent(job({ budgets_json: "", attribution_json: "not json" }));
    expect(before.budget_leases).toBeUndefined();
    expect(before.end_user).toBeUndefined();
  });

  it("a job the provider failed is billed by nobody", () => {
    const ev = event(job({ status: "failed", error_code: "video_generation_failed", cost_minor: 0 }));
    expect(ev).toMatchObject({ cost_minor: 0, status: 502 });
    expect(ev.attempts).toEqual([submit({ outcome: "failed", payer: "none", duration_ms: 42_000 })]);
  });

  it("keeps a retried submit's failed attempts and ends the last as the job ended", () => {
    const attempts = [submit({ status: 503, outcome: "failed", payer: "none" }), submit({ attempt: 2 })];
    const done = event(job({ attempts_json: JSON.stringify(attempts) }));
    expect(done.attempts.map((a) => [a.outcome, a.payer, a.cost_minor])).toEqual([
      ["failed", "none", 0],
      ["served", "caller", 800_000],
    ]);
    const cancelled = event(job({ attempts_json: JSON.stringify(attempts), status: "cancelled", error_code: "cancelled", cost_minor: 0 }));
    expect(cancelled.attempts.map((a) => [a.outcome, a.payer, a.provider_cost_minor])).toEqual([
      ["failed", "none", 0],
      ["client_gone", "operator", 800_000],
    ]);
  });

  it("a job recorded before attempts were kept still has its submit written out", () => {
    const ev = event(job({ attempts_json: "", status: "cancelled", error_code: "cancelled", cost_minor: 0 }));
    expect(ev.attempts).toEqual([submit({ outcome: "client_gone", estimated: true, cost_minor: 800_000, provider_cost_minor: 800_000, payer: "operator", duration_ms: 42_000 })]);
    expect(event(job({ attempts_json: "not json" })).served_attempt).toMatchObject({ outcome: "served", provider_cost_minor: 800_000 });
  });
});
