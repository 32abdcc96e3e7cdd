import { createHash } from "node:crypto";
import { once } from "node:events";
import type { NextFunction, Request, Response } from "express";
import { GatewayError, invalidParam } from "@gateway/errors";
import type { VideoJob } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { applyRateLimit } from "../admission/admit.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import { requireRoute } from "../catalog/visibility.js";
import { newVideoJobId, type Authenticated, type RequestContext } from "../http/request-context.js";
import { attemptAll, toGatewayError } from "../pipeline/attempts.js";
import { classify } from "../providers/upstream-client.js";
import type { VideoOutput } from "../providers/video/types.js";
import { writeGatewayHeaders } from "../http/headers.js";
import { MEDIA_FIELDS, planVideo, validateVideoBody, videoJobSpec, type VideoRequestBody } from "../video/request.js";
import { column, isTerminal, jobRef, jobTarget, videoHttp } from "../video/jobs.js";
import { guardrailOutcomes } from "../guardrails/index.js";
import { fieldTexts } from "../translate/texts.js";

const seconds = (ms: number): number | null => (ms > 0 ? Math.floor(ms / 1000) : null);

/** Multipart and form bodies are file uploads here: 415 with the way to send media instead. */
export function videoBodyGuard(req: Request, _res: Response, next: NextFunction): void {
  const type = req.headers["content-type"] ?? "";
  if (/^multipart\//i.test(type) || /^application\/x-www-form-urlencoded/i.test(type)) {
    next(
      new GatewayError("unsupported_media_type", "Video media are URLs only: file uploads are not accepted. Send a JSON body with https:// URLs in imageUrl, imageUrls, refAudioUrl or refVideoUrl."),
    );
    return;
  }
  next();
}

/** The job record callers see (docs/video.md). */
export function renderJob(ctx: DataPlaneContext, req: Request, job: VideoJob): Record<string, unknown> {
  const base = ctx.config.publicUrl ?? `${req.protocol}://${req.get("host") ?? "localhost"}`;
  const outputs = column<VideoOutput[]>(job.outputs_json, []);
  const request = column<Record<string, unknown>>(job.request_json, {});
  const done = job.status === "completed";
  return {
    id: job.id,
    object: "video.generation",
    model: job.model,
    status: job.status,
    progress: job.progress,
    created_at: seconds(job.created_at_ms),
    updated_at: seconds(job.updated_at_ms),
    completed_at: isTerminal(job.status) ? seconds(job.completed_at_ms) : null,
    request,
    error: job.status === "failed" || job.status === "cancelled" ? { code: job.error_code || "video_generation_failed", message: job.error_message || "The video could not be generated." } : null,
    outputs: done ? outputs.map((o) => ({ type: o.type, url: o.gateway_content ? `${base}/v1/video/generations/${job.id}/content` : o.url, content_type: o.content_type })) : [],
    usage: done ? { duration_seconds: job.duration_s, resolution: job.resolution, audio: job.audio } : null,
    max_cost_credits_minor: job.max_cost_minor,
    cost_credits_minor: done ? job.cost_minor : job.status === "failed" || job.status === "cancelled" ? 0 : null,
  };
}

function serveJobHeaders(res: Response, rq: RequestContext, job: VideoJob): void {
  rq.served = { provider: job.provider, upstreamModel: job.upstream_model, retries: 0, fallbacks: [], attempts: [] };
  writeGatewayHeaders(res, rq);
}

/** POST /v1/video/generations: validate, hold the maximum cost, check media URLs, submit, record. */
export const createVideoRoute: RouteSpec<VideoRequestBody, "video"> = {
  route: "video",
  capability: "video",
  parse: validateVideoBody,
  admission(body, _state, ctx) {
    return {
      modelId: body.model,
      promptTokensBound: () => 0,
      requestedOutput: 0,
      // The request's values checked against the model admission resolved (403/404 before any 400
      // about its values, and both before rate limits), planned once: the hold and the job read it.
      fit: (b, model) => ({ ...b, plan: planVideo(model, b) }),
      maxCostMinor: (_model, b) => b.plan!.maxCostMinor,
      dedicatedHold: true,
      guard: { stream: false, texts: (b) => fieldTexts(b, "prompt") },
      // DNS for media URLs only once the request passed rate limits and guardrails.
      verify: async () => {
        for (const f of MEDIA_FIELDS) if (body[f]) await ctx.media.check(f, body[f]);
        if (body.imageUrls) for (const [i, u] of body.imageUrls.entries()) await ctx.media.check(`imageUrls[${i}]`, u);
      },
    };
  },
  async serve(ctx, call) {
    const { body, state, model, planned, reservation, req, client, timeoutMs } = call;
    const plan = body.plan!;
    const spec = videoJobSpec(body, plan);
    const { key } = state;
    const idempotent = idempotencyOf(req);
    const lease = reservation.leaseId;
    // The hold is released by the runner's settle unless a job takes it (reservation.keep).
    const served = await attemptAll(ctx, call, planned, ({ target, adapter }) => adapter.submit(videoHttp(ctx, target, timeoutMs, client), target, spec));
    const { planned: p, value: submitted } = served;
    const request: Record<string, unknown> = { duration: plan.durationS, resolution: plan.resolution, aspectRatio: plan.aspectRatio, generateAudio: plan.generateAudio };
    for (const f of ["prompt", "imageUrl", "imageUrls", "refAudioUrl", "refVideoUrl"] as const) if (body[f] !== undefined) request[f] = body[f];
    let job: VideoJob;
    const id = newVideoJobId(state.startedAt);
    try {
      job = await ctx.control.CreateVideoJob({
        id,
        org_id: key.org_id,
        key_id: key.key_id,
        model: model.id,
        provider: p.target.provider.code,
        upstream_model: p.target.deployment.upstream_model,
        upstream_job_id: submitted.upstreamJobId ?? "",
        upstream_json: JSON.stringify(submitted.upstreamState ?? {}),
        request_json: JSON.stringify(request),
        status: submitted.status === "in_progress" ? "in_progress" : "queued",
        progress: submitted.progress,
        error_code: "",
        error_message: "",
        outputs_json: "[]",
        duration_s: plan.durationS,
        price_minor_per_second: plan.pricePerSecond,
        max_cost_minor: plan.maxCostMinor,
        lease_id: lease,
        cost_minor: 0,
        settled: false,
        trace_id: state.requestId,
        created_at_ms: 0,
        updated_at_ms: 0,
        completed_at_ms: 0,
        refreshed_at_ms: 0,
        resolution: plan.resolution,
        audio: plan.generateAudio,
        guardrails_json: JSON.stringify(guardrailOutcomes(state)),
        idempotency_key: idempotent?.key ?? "",
        request_hash: idempotent?.hash ?? "",
        // Billed when the job completes: its event carries these (video/jobs.ts).
        attempts_json: JSON.stringify(state.served?.attempts ?? []),
        ...(state.catalogVersion !== undefined ? { catalog_version: state.catalogVersion } : {}),
        // Held under these budgets until it is billed, and attributed as the request was (video/usage.ts).
        budgets_json: JSON.stringify(reservation.budgetHolds ?? []),
        attribution_json: JSON.stringify(state.attribution ?? {}),
      });
    } catch (err) {
      // Stop the provider's job (best effort: a failed cancel must not skip what follows).
      await p.adapter
        .cancel(videoHttp(ctx, p.target, 5_000), p.target, {
          upstreamJobId: submitted.upstreamJobId ?? "",
          upstreamModel: p.target.deployment.upstream_model,
          upstreamState: submitted.upstreamState ?? {},
        })
        .catch((e: unknown) => ctx.log.warn({ err: e, job_id: id }, "video job cancel failed"));
      // No answer from the control-plane (a timeout, the connection cut) is not a refusal: the job
      // may be recorded all the same, and would then be billed when it completes. Its hold stays
      // (the ledger frees it when it lapses unused; the reconciler renews it for a recorded job),
      // and the caller gets the id to ask whether it was.
      if (!(err instanceof GatewayError) || err.code === "service_unavailable") {
        reservation.keep?.();
        throw new GatewayError(
          "service_unavailable",
          `The video job ${id} could not be confirmed: GET /v1/video/generations/${id} says whether it was recorded (a job that was not is never charged). Retry shortly.`,
          { retry_after_s: 2 },
        );
      }
      // Refused: not recorded, so nobody could poll or bill it; the runner frees the credit.
      // A concurrent create with the same Idempotency-Key recorded its job first: that one is the
      // answer. This submit reached the provider all the same, and was cancelled: its record says
      // what the provider may bill the operator for it (the runner's ending records it).
      if (idempotent && err.code === "already_exists") {
        const winner = await priorJob(ctx, key.org_id, idempotent);
        if (winner) return { kind: "unbilled", body: renderJob(ctx, req, winner), absorbed: true };
      }
      throw err;
    }
    // Billed by the job's own record when it completes (video/jobs.ts), from the hold made here.
    reservation.keep?.();
    return { kind: "unbilled", body: renderJob(ctx, req, job) };
  },
};

/** An Idempotency-Key and the hash of the request it came with. */
interface Idempotent {
  key: string;
  hash: string;
}

/** `Idempotency-Key` (1–255 printable ASCII characters, like Stripe's and the top-ups'); absent: undefined. */
function idempotencyOf(req: Request): Idempotent | undefined {
  const raw = req.headers["idempotency-key"];
  if (raw === undefined) return undefined;
  const key = (Array.isArray(raw) ? raw.join(",") : raw).trim();
  if (!/^[\x21-\x7e]{1,255}$/.test(key)) throw invalidParam("Idempotency-Key", "The 'Idempotency-Key' header must be 1 to 255 printable ASCII characters without spaces.");
  return {
    key,
    hash: createHash("sha256")
      .update(JSON.stringify(req.body ?? null))
      .digest("hex"),
  };
}

/**
 * The organization's job created with this key, when it was created by the same request; a key
 * reused for a different request is a 409 (the caller's bug: it would otherwise get a job it did
 * not ask for).
 */
async function priorJob(ctx: DataPlaneContext, orgId: string, idem: Idempotent): Promise<VideoJob | undefined> {
  let job: VideoJob;
  try {
    job = await ctx.control.GetVideoJob({ org_id: orgId, job_id: "", idempotency_key: idem.key });
  } catch (err) {
    if (err instanceof GatewayError && err.code === "not_found") return undefined;
    throw err;
  }
  if (job.request_hash !== idem.hash) {
    throw new GatewayError("already_exists", `The Idempotency-Key '${idem.key.slice(0, 80)}' was used for a different video request (job ${job.id}); use a new key for a new request.`, {
      param: "Idempotency-Key",
    });
  }
  return job;
}

/**
 * POST /v1/video/generations. With an Idempotency-Key, a retry of a create that already made a job
 * answers that job (`Idempotent-Replayed: true`): nothing is held, nothing submitted again.
 * Two creates racing with one key both submit, but only the first job is recorded; the other's
 * provider job is cancelled at once and its hold released, and it answers the first job too.
 */
export const createVideo = (ctx: DataPlaneContext) => {
  const create = handle(ctx, createVideoRoute);
  return async (req: Request, res: Response, rq: Authenticated): Promise<void> => {
    const idem = idempotencyOf(req);
    const prior = idem ? await priorJob(ctx, rq.key.org_id, idem) : undefined;
    if (!prior) return create(req, res, rq);
    // A replay is still a call of the route: the key's scope and rate limit apply (its headers too).
    requireRoute(rq.key, "video");
    applyRateLimit(ctx, rq);
    rq.replayed = true;
    serveJobHeaders(res, rq, prior);
    res.json(renderJob(ctx, req, prior));
  };
};

/** Scope and rate limit of the read routes, then the job of the caller's organization (404 otherwise). */
async function ownJob(ctx: DataPlaneContext, req: Request, rq: Authenticated): Promise<VideoJob> {
  const { key } = rq;
  requireRoute(key, "video");
  applyRateLimit(ctx, rq);
  // The control-plane's answers (not_found naming the id; service_unavailable with Retry-After when
  // it is away) reach the caller as they are: their context travels across gRPC.
  return ctx.control.GetVideoJob({ org_id: key.org_id, job_id: String(req.params.jobId ?? "") });
}

/** GET /v1/video/generations/{jobId}: the record, refreshed from the provider when it is stale. */
export function getVideo(ctx: DataPlaneContext) {
  return async (req: Request, res: Response, rq: Authenticated): Promise<void> => {
    let job = await ownJob(ctx, req, rq);
    rq.model = job.model;
    job = await ctx.videoJobs.refreshIfStale(job);
    serveJobHeaders(res, rq, job);
    res.status(200).json(renderJob(ctx, req, job));
  };
}

/** GET /v1/video/generations/{jobId}/content: the video, without the provider's credentials. */
export function videoContent(ctx: DataPlaneContext) {
  return async (req: Request, res: Response, rq: Authenticated): Promise<void> => {
    const job = await ownJob(ctx, req, rq);
    if (job.status !== "completed") throw new GatewayError("not_found", `Video job '${job.id}' has no content: it is ${job.status}.`);
    serveJobHeaders(res, rq, job);
    const out = column<VideoOutput[]>(job.outputs_json, [])[0];
    if (out && !out.gateway_content && out.url) {
      res.redirect(302, out.url);
      return;
    }
    const found = jobTarget(ctx, job);
    const request = found?.adapter.content(found.target, jobRef(job));
    if (!found || !request) throw new GatewayError("model_unavailable", "The provider of this video is no longer configured on this gateway.");
    const client = new AbortController();
    res.on("close", () => {
      if (!res.writableFinished) client.abort();
    });
    let up;
    try {
      up = (await ctx.upstream.send(found.target.provider, request, ctx.config.upstreamTimeoutMs, client.signal)).res;
    } catch (err) {
      throw toGatewayError(classify(err, client.signal));
    }
    if (up.status !== 200) {
      await up.body.text().catch(() => "");
      throw new GatewayError("upstream_error", `The provider could not serve the video (status ${up.status}).`);
    }
    res.status(200);
    res.setHeader("content-type", typeof up.headers["content-type"] === "string" ? up.headers["content-type"] : "video/mp4");
    if (typeof up.headers["content-length"] === "string") res.setHeader("content-length", up.headers["content-length"]);
    for await (const chunk of up.body) {
      // A client that leaves while its socket is full never drains: stop waiting, and stop reading.
      if (!res.write(chunk)) await once(res, "drain", { signal: client.signal }).catch(() => undefined);
      if (client.signal.aborted) return;
    }
    res.end();
  };
}

/** POST /v1/video/generations/{jobId}/cancel: stops an unfinished job; nothing is billed for it. */
export function cancelVideo(ctx: DataPlaneContext) {
  return async (req: Request, res: Response, rq: Authenticated): Promise<void> => {
    const job = await ownJob(ctx, req, rq);
    rq.model = job.model;
    if (isTerminal(job.status)) throw new GatewayError("invalid_request", `Video job '${job.id}' is already ${job.status}.`);
    const after = await ctx.videoJobs.cancel(job);
    serveJobHeaders(res, rq, after);
    res.status(200).json(renderJob(ctx, req, after));
  };
}
