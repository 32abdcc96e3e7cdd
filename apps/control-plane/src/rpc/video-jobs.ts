import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import type { Selectable } from "kysely";
import type { ClaimVideoHoldsRequest, ClaimVideoJobsRequest, ClaimVideoJobsResponse, GetVideoJobRequest, UpdateVideoJobRequest, VideoJob } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import type { VideoJobsTable } from "../db/schema.js";

type Row = Selectable<VideoJobsTable>;

const STATUSES = new Set(["queued", "in_progress", "completed", "failed", "cancelled"]);
const TERMINAL = new Set(["completed", "failed", "cancelled"]);
const ID = /^vid_[A-Za-z0-9_-]{8,64}$/;
const json = (v: unknown): string => (typeof v === "string" ? v : JSON.stringify(v ?? null));
const ms = (d: Date | null): number => (d ? d.getTime() : 0);

export function toVideoJob(r: Row): VideoJob {
  return {
    id: r.id,
    org_id: r.org_id,
    key_id: r.key_id,
    model: r.model,
    provider: r.provider,
    upstream_model: r.upstream_model,
    upstream_job_id: r.upstream_job_id,
    upstream_json: json(r.upstream_json),
    request_json: json(r.request_json),
    status: r.status,
    progress: r.progress,
    error_code: r.error_code,
    error_message: r.error_message,
    outputs_json: json(r.outputs_json),
    duration_s: r.duration_s,
    price_minor_per_second: Number(r.price_minor_per_second),
    max_cost_minor: Number(r.max_cost_minor),
    lease_id: r.lease_id,
    cost_minor: Number(r.cost_minor),
    settled: r.settled,
    trace_id: r.trace_id,
    created_at_ms: ms(r.created_at),
    updated_at_ms: ms(r.updated_at),
    completed_at_ms: ms(r.completed_at),
    refreshed_at_ms: ms(r.refreshed_at),
    resolution: r.resolution,
    audio: r.audio,
    guardrails_json: json(r.guardrails ?? []),
    idempotency_key: r.idempotency_key ?? "",
    request_hash: r.request_hash,
    attempts_json: json(r.attempts ?? []),
    catalog_version: Number(r.catalog_version ?? 0),
    claim_token: "",
    budgets_json: json(r.budgets ?? []),
    attribution_json: json(r.attribution ?? {}),
  };
}

function parseJson(field: string, v: string, fallback: string): string {
  const text = v || fallback;
  try {
    JSON.parse(text);
  } catch {
    throw new GatewayError("invalid_request", `${field} must be JSON`);
  }
  return text;
}

/** Records a submitted job; the id comes from the data-plane (it is also the usage record's id). */
export function createVideoJob(ctx: ControlContext) {
  return async (req: VideoJob): Promise<VideoJob> => {
    if (!ID.test(req.id)) throw new GatewayError("invalid_request", "id must look like vid_…");
    if (!req.org_id || !req.key_id || !req.model || !req.lease_id || !req.upstream_job_id) {
      throw new GatewayError("invalid_request", "org_id, key_id, model, lease_id and upstream_job_id are required");
    }
    if (!Number.isSafeInteger(req.duration_s) || req.duration_s <= 0) throw new GatewayError("invalid_request", "duration_s must be a positive integer");
    const status = req.status || "queued";
    if (status !== "queued" && status !== "in_progress") throw new GatewayError("invalid_request", "a new job is queued or in_progress");
    const row = await ctx.db
      .insertInto("video_jobs")
      .values({
        id: req.id,
        org_id: req.org_id,
        key_id: req.key_id,
        model: req.model,
        provider: req.provider,
        upstream_model: req.upstream_model,
        upstream_job_id: req.upstream_job_id,
        upstream_json: parseJson("upstream_json", req.upstream_json, "{}"),
        request_json: parseJson("request_json", req.request_json, "{}"),
        status,
        progress: Math.max(0, Math.min(100, req.progress | 0)),
        outputs_json: "[]",
        duration_s: req.duration_s,
        resolution: req.resolution,
        audio: req.audio,
        price_minor_per_second: req.price_minor_per_second,
        max_cost_minor: req.max_cost_minor,
        lease_id: req.lease_id,
        trace_id: req.trace_id,
        guardrails: parseJson("guardrails_json", req.guardrails_json, "[]"),
        error_code: "",
        error_message: "",
        cost_minor: 0,
        settled: false,
        claimed_by: null,
        claim_until: null,
        completed_at: null,
        idempotency_key: req.idempotency_key || null,
        request_hash: req.request_hash,
        attempts: parseJson("attempts_json", req.attempts_json ?? "", "[]"),
        catalog_version: req.catalog_version ? Number(req.catalog_version) : null,
        budgets: parseJson("budgets_json", req.budgets_json ?? "", "[]"),
        attribution: parseJson("attribution_json", req.attribution_json ?? "", "{}"),
      })
      .onConflict((oc) => oc.doNothing())
      .returningAll()
      .executeTakeFirst();
    // The id, or the organization's idempotency key, is taken: a job exists already.
    if (!row) throw new GatewayError("already_exists", req.idempotency_key ? `a video job with idempotency key '${req.idempotency_key.slice(0, 80)}' exists` : `video job ${req.id} exists`);
    return toVideoJob(row);
  };
}

/** Another organization's job answers exactly like a missing one. */
export function getVideoJob(ctx: ControlContext) {
  return async (req: GetVideoJobRequest): Promise<VideoJob> => {
    if (!req.job_id && req.idempotency_key && req.org_id) {
      const byKey = await ctx.db.selectFrom("video_jobs").selectAll().where("org_id", "=", req.org_id).where("idempotency_key", "=", req.idempotency_key).executeTakeFirst();
      if (!byKey) throw new GatewayError("not_found", "No video job with that idempotency key.");
      return toVideoJob(byKey);
    }
    const row = ID.test(req.job_id) && req.org_id ? await ctx.db.selectFrom("video_jobs").selectAll().where("id", "=", req.job_id).where("org_id", "=", req.org_id).executeTakeFirst() : undefined;
    if (!row) throw new GatewayError("not_found", `No video job with id '${req.job_id.slice(0, 80)}'.`);
    return toVideoJob(row);
  };
}

/**
 * Claims jobs for a refresh: unfinished jobs whose record is older than stale_after_ms and finished
 * jobs not yet settled, whose claim is free or expired. FOR UPDATE SKIP LOCKED plus the claim
 * deadline make each job one claim's at a time, across any number of data-plane replicas. Each
 * claim gets a fresh token, and a job still under a claim is not claimed again, by its own holder
 * neither: a cancel on the replica whose refresh is about to record the completion waits for it,
 * rather than taking the job from under it (the refresh's write would then be refused).
 */
export function claimVideoJobs(ctx: ControlContext) {
  return async (req: ClaimVideoJobsRequest): Promise<ClaimVideoJobsResponse> => {
    if (!req.holder) throw new GatewayError("invalid_request", "holder is required");
    const claimMs = Math.max(1_000, Math.min(req.claim_ms || 30_000, 600_000));
    const stale = Math.max(0, req.stale_after_ms);
    const limit = Math.max(1, Math.min(req.limit || 10, 100));
    const byId = req.job_id ? sql`AND id = ${req.job_id}` : sql``;
    const r = await sql<Row>`
      UPDATE video_jobs SET claimed_by = ${req.holder}, claim_token = gen_random_uuid()::text,
        claim_until = now() + ${claimMs} * interval '1 millisecond'
      WHERE id IN (
        SELECT id FROM video_jobs
        WHERE NOT settled ${byId}
          AND (status IN ('completed', 'failed', 'cancelled') OR refreshed_at <= now() - ${stale} * interval '1 millisecond')
          AND (claim_until IS NULL OR claim_until < now())
        ORDER BY refreshed_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING *`.execute(ctx.db);
    return { jobs: r.rows.map((row) => ({ ...toVideoJob(row), claim_token: row.claim_token ?? "" })) };
  };
}

/**
 * The unsettled jobs whose hold is due for renewal, oldest due first, each made due again
 * renew_every_ms from now in the same statement: every due hold goes to one caller per period,
 * across any number of replicas, and a caller that dies leaves its jobs due again one period later.
 * Independent of refresh claims (a job whose provider is slow to answer keeps its hold). Finished
 * jobs that are not settled are included: their hold covers a completion still on its way to the
 * ledger.
 */
export function claimVideoHolds(ctx: ControlContext) {
  return async (req: ClaimVideoHoldsRequest): Promise<ClaimVideoJobsResponse> => {
    if (!req.holder) throw new GatewayError("invalid_request", "holder is required");
    const every = Math.max(100, Math.min(req.renew_every_ms || 10_000, 600_000));
    const limit = Math.max(1, Math.min(req.limit || 100, 500));
    const r = await sql<Row>`
      UPDATE video_jobs SET hold_due_at = now() + ${every} * interval '1 millisecond'
      WHERE id IN (
        SELECT id FROM video_jobs
        WHERE NOT settled AND hold_due_at <= now()
        ORDER BY hold_due_at
        LIMIT ${limit}
        FOR UPDATE SKIP LOCKED)
      RETURNING *`.execute(ctx.db);
    return { jobs: r.rows.map(toVideoJob) };
  };
}

/**
 * A refresh's result. Only the current claim writes (its token; a data-plane before tokens: its
 * holder); a finished job keeps its state, outputs and cost (a later writer may only mark it
 * settled), so a job is completed and billed once. The cost is never more than what was held for the
 * job (max_cost_minor) nor its seconds more than were asked for.
 */
export function updateVideoJob(ctx: ControlContext) {
  return async (req: UpdateVideoJobRequest): Promise<VideoJob> => {
    if (req.status && !STATUSES.has(req.status)) throw new GatewayError("invalid_request", `status must be one of ${[...STATUSES].join(", ")}`);
    return ctx.db.transaction().execute(async (trx) => {
      const cur = await trx.selectFrom("video_jobs").selectAll().where("id", "=", req.job_id).forUpdate().executeTakeFirst();
      if (!cur) throw new GatewayError("not_found", `No video job with id '${req.job_id.slice(0, 80)}'.`);
      const mine = req.claim_token ? cur.claim_token === req.claim_token : cur.claimed_by === req.holder;
      if (!mine) throw new GatewayError("conflict", `video job ${req.job_id} is claimed by another holder (or this claim ran out and was taken over)`);
      if (!Number.isSafeInteger(req.cost_minor) || req.cost_minor < 0) throw new GatewayError("invalid_request", "cost_minor must be a non-negative integer (minor units)");
      const finished = TERMINAL.has(cur.status);
      const now = new Date();
      const set: Record<string, unknown> = { updated_at: now, refreshed_at: now };
      if (!finished && req.status) {
        set.status = req.status;
        set.progress = req.status === "completed" ? 100 : Math.max(cur.progress, Math.min(100, Math.max(0, req.progress | 0)));
        if (TERMINAL.has(req.status)) {
          set.completed_at = now;
          set.error_code = req.error_code;
          set.error_message = req.error_message;
          // Clamped to the hold: what was held is the most the job may bill (docs/video.md).
          set.cost_minor = req.status === "completed" ? Math.min(req.cost_minor, Number(cur.max_cost_minor)) : 0;
          if (req.duration_s > 0) set.duration_s = Math.min(req.duration_s, cur.duration_s);
        }
        if (req.outputs_json) set.outputs_json = parseJson("outputs_json", req.outputs_json, "[]");
        if (req.upstream_json) set.upstream_json = parseJson("upstream_json", req.upstream_json, "{}");
      }
      const terminalAfter = finished || TERMINAL.has(req.status);
      if (req.settled && terminalAfter) set.settled = true;
      // A new hold replaces one the ledger let lapse; a settled job's hold is over.
      if (req.lease_id && !cur.settled) set.lease_id = req.lease_id;
      if (req.budgets_json && !cur.settled) set.budgets = parseJson("budgets_json", req.budgets_json, "[]");
      if (req.release_claim) {
        set.claimed_by = null;
        set.claim_until = null;
        set.claim_token = null;
      }
      const row = await trx.updateTable("video_jobs").set(set).where("id", "=", req.job_id).returningAll().executeTakeFirstOrThrow();
      // The claim goes on (unless released): the writer keeps its token.
      return { ...toVideoJob(row), claim_token: row.claim_token ?? "" };
    });
  };
}
