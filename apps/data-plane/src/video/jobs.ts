import { GatewayError } from "@gateway/errors";
import { AttemptV1, MAX_RECORDED_ATTEMPTS, type UsageEventV1 } from "@gateway/events";
import { z } from "zod";
import type { VideoJob } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { UpstreamHttpRequest, UpstreamTarget } from "../providers/index.js";
import { PROVIDERS } from "../providers/table.js";
import type { VideoAdapter, VideoHttp, VideoJobRef, VideoStatus } from "../providers/video/types.js";

/** A JSON column of the job record (or a provider's answer); a value that does not parse reads as empty. */
export function column<T>(json: string, empty: T): T {
  try {
    return json ? (JSON.parse(json) as T) : empty;
  } catch {
    return empty;
  }
}

function parseOutcomes(text: string): UsageEventV1["guardrails"] {
  const v = column<unknown>(text, []);
  return Array.isArray(v) ? (v as UsageEventV1["guardrails"]) : [];
}

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
export const isTerminal = (status: string): boolean => TERMINAL.has(status);

/** HTTP for video adapters over the pooled upstream client, every call with a deadline. */
export function videoHttp(ctx: DataPlaneContext, target: UpstreamTarget, timeoutMs: number, signal: AbortSignal = new AbortController().signal): VideoHttp {
  return {
    async call(req: UpstreamHttpRequest) {
      const { res } = await ctx.upstream.send(target.provider, req, timeoutMs, signal);
      const text = await res.body.text();
      const json = column<unknown>(text, undefined);
      const ra = res.headers["retry-after"];
      return { status: res.status, json, text, retryAfter: typeof ra === "string" ? ra : undefined };
    },
  };
}

/** The provider of a stored job as a target (catalog provider + credential), if still configured. */
export function jobTarget(ctx: DataPlaneContext, job: VideoJob): { target: UpstreamTarget; adapter: VideoAdapter } | undefined {
  const provider = ctx.catalog.current.providers.get(job.provider);
  const adapter = provider && PROVIDERS[provider.kind].capabilities.video;
  if (!provider || !adapter) return undefined;
  const apiKey = provider.credential_ref ? ctx.config.resolveCredential(provider.credential_ref) : undefined;
  if (provider.credential_ref && !apiKey) return undefined;
  return { target: { provider, deployment: { provider: provider.code, upstream_model: job.upstream_model, priority: 0, weight: 1 }, apiKey }, adapter };
}

export function jobRef(job: VideoJob): VideoJobRef {
  return { upstreamJobId: job.upstream_job_id, upstreamModel: job.upstream_model, upstreamState: column<Record<string, string>>(job.upstream_json, {}) };
}

/**
 * Refreshes and finishes video jobs. Every refresh works on a job this replica has claimed at the
 * control-plane, so one replica at a time talks to the provider about a job. Completion is two
 * steps: the record becomes `completed` with its cost (a finished record never changes again),
 * then the usage event is published (its id is the job id, so a repeat is a duplicate the ledger
 * ignores), the hold released and the record marked settled. A replica that dies between the steps
 * leaves an unsettled finished job, which the next claim settles: billed exactly once.
 */
export class VideoJobs {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly ctx: DataPlaneContext) {}

  get holder(): string {
    return this.ctx.config.replicaId;
  }

  start(): void {
    this.timer = setInterval(() => {
      if (!this.running)
        this.running = this.reconcile()
          .then(() => undefined)
          .finally(() => (this.running = undefined));
    }, this.ctx.config.video.reconcileMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One reconciler pass: claims stale or unsettled jobs (bounded batch) and refreshes each. */
  async reconcile(): Promise<number> {
    const v = this.ctx.config.video;
    let claimed: VideoJob[];
    try {
      claimed = (await this.ctx.control.ClaimVideoJobs({ holder: this.holder, job_id: "", stale_after_ms: v.staleMs, claim_ms: v.claimMs, limit: 20 })).jobs;
    } catch (err) {
      this.ctx.log.warn({ err }, "video reconciler could not claim jobs");
      return 0;
    }
    for (const job of claimed) {
      await this.refresh(job).catch((err: unknown) => this.ctx.log.warn({ err, job_id: job.id }, "video job refresh failed"));
    }
    return claimed.length;
  }

  /** A poll found its job stale: claim it (unless another replica is on it) and refresh it. */
  async refreshIfStale(job: VideoJob): Promise<VideoJob> {
    const v = this.ctx.config.video;
    if (isTerminal(job.status) || Date.now() - job.refreshed_at_ms < v.pollStaleMs) return job;
    try {
      const [mine] = (await this.ctx.control.ClaimVideoJobs({ holder: this.holder, job_id: job.id, stale_after_ms: v.pollStaleMs, claim_ms: v.claimMs, limit: 1 })).jobs;
      return mine ? await this.refresh(mine) : job;
    } catch (err) {
      this.ctx.log.warn({ err, job_id: job.id }, "video job refresh on poll failed");
      return job;
    }
  }

  /**
   * Cancels an unfinished job for its caller: claims it (waiting briefly while another replica
   * refreshes it), stops it at the provider (best effort), records `cancelled` and releases the
   * hold. A job that finished first keeps its result and is returned as is.
   */
  async cancel(job: VideoJob): Promise<VideoJob> {
    const v = this.ctx.config.video;
    for (let attempt = 0; attempt < 20 && !isTerminal(job.status); attempt++) {
      const [mine] = (await this.ctx.control.ClaimVideoJobs({ holder: this.holder, job_id: job.id, stale_after_ms: 0, claim_ms: v.claimMs, limit: 1 })).jobs;
      if (!mine) {
        await new Promise((r) => setTimeout(r, 100));
        job = await this.ctx.control.GetVideoJob({ org_id: job.org_id, job_id: job.id });
        continue;
      }
      if (isTerminal(mine.status)) return mine.settled ? mine : this.settle(mine);
      const found = jobTarget(this.ctx, mine);
      if (found) await found.adapter.cancel(videoHttp(this.ctx, found.target, 5_000), found.target, jobRef(mine));
      const cancelled = await this.update(mine, { status: "cancelled", progress: mine.progress, error_code: "cancelled", error_message: "The job was cancelled by the caller." });
      return this.settle(cancelled);
    }
    if (!isTerminal(job.status)) throw new GatewayError("service_unavailable", "The job is being updated by another replica; retry the cancel shortly.", { retry_after_s: 1 });
    return job;
  }

  /** Refreshes a claimed job from its provider, finishing and settling it when it is done. */
  async refresh(job: VideoJob): Promise<VideoJob> {
    if (isTerminal(job.status)) return job.settled ? job : this.settle(job);
    const age = Date.now() - job.created_at_ms;
    const found = jobTarget(this.ctx, job);
    let st: VideoStatus | undefined;
    if (found) {
      try {
        st = await found.adapter.status(videoHttp(this.ctx, found.target, Math.min(this.ctx.config.upstreamTimeoutMs, 30_000)), found.target, jobRef(job));
      } catch (err) {
        this.ctx.log.warn({ err: err instanceof GatewayError ? err.message : err, job_id: job.id }, "video status call failed; will retry");
      }
    }
    if ((!st || !isTerminal(st.status)) && age > this.ctx.config.video.maxAgeMs) {
      if (found) await found.adapter.cancel(videoHttp(this.ctx, found.target, 5_000), found.target, jobRef(job));
      st = {
        status: "failed",
        progress: st?.progress ?? job.progress,
        error: { code: "timeout", message: `The provider did not finish the video within ${Math.round(this.ctx.config.video.maxAgeMs / 1000)} s.` },
      };
    }
    if (!st || !isTerminal(st.status)) {
      await this.renewHold(job);
      return this.update(job, { status: st?.status ?? job.status, progress: st?.progress ?? job.progress, release_claim: true });
    }
    const cost = st.status === "completed" ? Math.min(st.durationS ?? job.duration_s, job.duration_s) * job.price_minor_per_second : 0;
    const finished = await this.update(job, {
      status: st.status,
      progress: st.progress,
      error_code: st.error?.code ?? "",
      error_message: st.error?.message ?? "",
      outputs_json: JSON.stringify(st.outputs ?? []),
      cost_minor: cost,
      duration_s: st.status === "completed" ? Math.min(st.durationS ?? job.duration_s, job.duration_s) : 0,
    });
    return this.settle(finished);
  }

  /**
   * Bills a finished job (usage event keyed by the job id) and, once JetStream acknowledged the
   * event, releases its hold; then marks it settled.
   */
  private async settle(job: VideoJob): Promise<VideoJob> {
    if (job.status === "completed") {
      const ev: UsageEventV1 = {
        version: 1,
        request_id: job.id,
        org_id: job.org_id,
        key_id: job.key_id,
        model: job.model,
        route: "video",
        provider: job.provider,
        upstream_model: job.upstream_model,
        lease_id: job.lease_id,
        ...(job.catalog_version ? { catalog_version: Number(job.catalog_version) } : {}),
        usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false },
        input_price_minor_per_mtok: 0,
        output_price_minor_per_mtok: 0,
        cost_minor: job.cost_minor,
        line_items: [
          { item: "video_seconds", quantity: job.duration_s, unit_price_minor: job.price_minor_per_second, per: "second", attributes: { resolution: job.resolution, audio: String(job.audio) } },
        ],
        guardrails: parseOutcomes(job.guardrails_json),
        ...videoAttempts(job),
        stream: false,
        status: 200,
        created_at_ms: job.completed_at_ms || Date.now(),
        duration_ms: Math.max(0, (job.completed_at_ms || Date.now()) - job.created_at_ms),
      };
      // The hold stays until JetStream has the event: spooled, it might reach the ledger only after
      // the ledger gave up waiting for a released lease's usage. The next claim publishes it again
      // (a duplicate changes nothing) and settles once it is acknowledged.
      if ((await this.ctx.publisher.publish(ev)) === "spooled") {
        // NATS may stay away for longer than a lease lives: the hold is kept alive meanwhile, or the
        // ledger would free it and the credit could be spent again before this event arrives.
        await this.renewHold(job);
        return this.update(job, { release_claim: true });
      }
    }
    await this.ctx.ledger.ReleaseLease({ lease_id: job.lease_id, consumed_minor: job.status === "completed" ? job.cost_minor : 0, org_id: job.org_id }).catch((err: unknown) => {
      // An expired lease was released by the ledger already; anything else is retried by the next claim.
      if (!(err instanceof GatewayError && err.code === "not_found")) throw err;
    });
    return this.update(job, { settled: true, release_claim: true });
  }

  /** Keeps a job's hold alive (the ledger frees leases left idle past their lifetime): while the job runs, and while its completion waits in a spool. */
  private async renewHold(job: VideoJob): Promise<void> {
    await this.ctx.ledger
      .AcquireLease({ org_id: job.org_id, lease_id: job.lease_id, holder: this.holder, amount_minor: 0, min_amount_minor: 0, ttl_ms: this.ctx.config.leaseTtlMs, monthly_budget_minor: 0 })
      .catch((err: unknown) => this.ctx.log.warn({ err, job_id: job.id, lease_id: job.lease_id }, "video job hold renewal failed; the next claim retries"));
  }

  private update(job: VideoJob, u: Partial<Omit<Parameters<DataPlaneContext["control"]["UpdateVideoJob"]>[0], "job_id" | "holder">>): Promise<VideoJob> {
    return this.ctx.control.UpdateVideoJob({
      job_id: job.id,
      holder: this.holder,
      status: "",
      progress: 0,
      error_code: "",
      error_message: "",
      outputs_json: "",
      cost_minor: 0,
      settled: false,
      upstream_json: "",
      duration_s: 0,
      release_claim: false,
      ...u,
    });
  }
}

/**
 * The attempts of a completed job's usage event: its submit's attempts as recorded at creation,
 * the last (the submit that started the job) completed with the generation it bought at the
 * catalog's price and billed to the caller; a job whose submit served at once is sent as
 * served_attempt (usage.v1), one recorded before attempts were kept likewise.
 */
function videoAttempts(job: VideoJob): Pick<UsageEventV1, "attempts" | "served_attempt"> {
  const durationMs = Math.max(0, (job.completed_at_ms || Date.now()) - job.created_at_ms);
  let recorded: AttemptV1[] = [];
  try {
    const parsed = z
      .array(AttemptV1)
      .max(MAX_RECORDED_ATTEMPTS)
      .safeParse(JSON.parse(job.attempts_json || "[]"));
    if (parsed.success) recorded = parsed.data;
  } catch {
    // Not JSON: the job still bills, as one attempt.
  }
  if (recorded.length <= 1) return { attempts: [], served_attempt: { outcome: "served", duration_ms: durationMs, provider_cost_minor: job.cost_minor } };
  const last = recorded[recorded.length - 1]!;
  Object.assign(last, { outcome: "served", status: 200, cost_minor: job.cost_minor, provider_cost_minor: job.cost_minor, payer: "caller", duration_ms: durationMs });
  return { attempts: recorded };
}
