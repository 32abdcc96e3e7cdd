import { GatewayError } from "@gateway/errors";
import { Counter } from "@gateway/observability";
import type { UpdateVideoJobRequest, VideoJob } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { UpstreamHttpRequest, UpstreamTarget } from "../providers/index.js";
import { PROVIDERS } from "../providers/table.js";
import type { VideoAdapter, VideoHttp, VideoJobRef, VideoStatus } from "../providers/video/types.js";
import { HoldRenewal } from "./holds.js";
import { column } from "./json.js";
import { HOLD_LAPSED, budgetHoldsOf, jobUsageEvent, leaseIdsOf } from "./usage.js";
import type { BudgetHold } from "../credits/lease-manager.js";

export { column } from "./json.js";

const TERMINAL = new Set(["completed", "failed", "cancelled"]);
export const isTerminal = (status: string): boolean => TERMINAL.has(status);

/** Jobs one reconciler pass claims at most. */
const CLAIM_BATCH = 20;
/** Deadline of a cancel call at the provider, ms. */
const CANCEL_TIMEOUT_MS = 5_000;

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

/** What the gateway stops a job for: the caller's cancel, or a hold that lapsed and could not be made again. */
type StopReason = "cancelled" | typeof HOLD_LAPSED;

type Update = Partial<Omit<UpdateVideoJobRequest, "job_id" | "holder" | "claim_token">>;

/**
 * Refreshes, finishes and holds video jobs. Every write works under a claim at the control-plane
 * that carries a token of its own, so one claim at a time talks to the provider about a job and
 * writes it, and a replica never takes a job from under its own earlier claim. Completion is two
 * steps: the record becomes `completed` with its cost (a finished record never changes again), then
 * the usage event is published (its id is the job id, so a repeat is a duplicate the ledger
 * ignores), the hold released and the record marked settled. A replica that dies between the steps
 * leaves an unsettled finished job, which the next claim settles: billed exactly once. Holds are
 * kept alive by their own loop (video/holds.ts), whatever the refreshes are doing.
 */
export class VideoJobs {
  private timer: NodeJS.Timeout | undefined;
  private claiming: Promise<unknown> | undefined;
  /** The reconciler's refreshes in flight (at most refreshConcurrency). */
  private readonly refreshing = new Set<Promise<unknown>>();
  /** The last claim took all it had room for: more jobs may be waiting, so a finished refresh claims again at once. */
  private backlog = false;
  /** Aborts provider calls at shutdown. */
  private readonly stopping = new AbortController();
  private readonly holds: HoldRenewal;

  constructor(private readonly ctx: DataPlaneContext) {
    const v = ctx.config.video;
    const renewals = new Counter({
      name: "gateway_video_hold_renewals_total",
      help: "Video job hold renewals by result: renewed; lapsed (the ledger had let the lease go: held again, or the job stopped); released (the job was settled meanwhile); failed (the ledger did not answer: retried next period)",
      labelNames: ["result"],
      registers: [ctx.metrics.registry],
    });
    this.holds = new HoldRenewal({
      log: ctx.log,
      renewEveryMs: v.holdRenewMs,
      concurrency: v.holdConcurrency,
      due: async (limit) => (await ctx.control.ClaimVideoHolds({ holder: this.holder, renew_every_ms: v.holdRenewMs, limit })).jobs,
      renew: (job) => this.renewHolds(job),
      lapsed: (job) => this.holdAgain(job),
      count: (result) => renewals.inc({ result }),
    });
  }

  get holder(): string {
    return this.ctx.config.replicaId;
  }

  start(): void {
    this.timer = setInterval(() => this.tick(), this.ctx.config.video.reconcileMs);
    this.timer.unref();
    this.holds.start();
  }

  /** A reconciler pass, unless one is claiming already. */
  private tick(): void {
    if (!this.claiming && !this.stopping.signal.aborted) this.claiming = this.reconcile().finally(() => (this.claiming = undefined));
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.stopping.abort();
    await this.holds.stop();
    await this.claiming;
    await Promise.allSettled([...this.refreshing]);
  }

  /**
   * One reconciler pass: claims stale or unsettled jobs, as many as it has room to refresh now (no
   * claim waits behind a slow provider's answers), and starts their refreshes; returns how many.
   */
  async reconcile(): Promise<number> {
    const v = this.ctx.config.video;
    const room = Math.min(CLAIM_BATCH, v.refreshConcurrency - this.refreshing.size);
    if (room <= 0 || this.stopping.signal.aborted) return 0;
    let claimed: VideoJob[];
    try {
      claimed = (await this.ctx.control.ClaimVideoJobs({ holder: this.holder, job_id: "", stale_after_ms: v.staleMs, claim_ms: v.claimMs, limit: room })).jobs;
    } catch (err) {
      this.ctx.log.warn({ err }, "video reconciler could not claim jobs");
      return 0;
    }
    this.backlog = claimed.length === room;
    for (const job of claimed) {
      const p: Promise<unknown> = this.underClaim(job, () => this.refresh(job))
        .catch((err: unknown) => this.ctx.log.warn({ err, job_id: job.id }, "video job refresh failed"))
        .finally(() => {
          this.refreshing.delete(p);
          // A slot is free and jobs may be waiting: the pool stays busy between timer ticks.
          if (this.backlog) this.tick();
        });
      this.refreshing.add(p);
    }
    return claimed.length;
  }

  /** A poll found its job stale: claim it (unless a claim is on it, this replica's included) and refresh it. */
  async refreshIfStale(job: VideoJob): Promise<VideoJob> {
    const v = this.ctx.config.video;
    if (isTerminal(job.status) || Date.now() - job.refreshed_at_ms < v.pollStaleMs) return job;
    try {
      const [mine] = (await this.ctx.control.ClaimVideoJobs({ holder: this.holder, job_id: job.id, stale_after_ms: v.pollStaleMs, claim_ms: v.claimMs, limit: 1 })).jobs;
      return mine ? await this.underClaim(mine, () => this.refresh(mine)) : job;
    } catch (err) {
      this.ctx.log.warn({ err, job_id: job.id }, "video job refresh on poll failed");
      return job;
    }
  }

  /**
   * Cancels an unfinished job for its caller: claims it (waiting briefly while another claim, this
   * replica's own included, refreshes it), asks the provider for its status first — a job the
   * provider finished keeps its result and is billed (the completion wins the race) — and only then
   * stops it at the provider (best effort), records `cancelled` and settles it: the caller pays
   * nothing, and its record says what the provider may bill the operator. A job that finished
   * first keeps its result and is returned as is.
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
      return this.underClaim(mine, async () => (isTerminal(mine.status) ? (mine.settled ? mine : this.settle(mine)) : this.stopJob(mine, "cancelled")));
    }
    if (!isTerminal(job.status)) throw new GatewayError("service_unavailable", "The job is being refreshed from its provider; retry the cancel shortly.", { retry_after_s: 1 });
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
        st = await this.providerStatus(found, job);
      } catch (err) {
        this.ctx.log.warn({ err: err instanceof GatewayError ? err.message : err, job_id: job.id }, "video status call failed; will retry");
      }
    }
    // Shutting down: the call was cut, not answered. The next claim (any replica) carries on.
    if (!st && this.stopping.signal.aborted) return this.update(job, { release_claim: true });
    if ((!st || !isTerminal(st.status)) && age > this.ctx.config.video.maxAgeMs) {
      if (found) await found.adapter.cancel(this.http(found.target, CANCEL_TIMEOUT_MS), found.target, jobRef(job));
      st = {
        status: "failed",
        progress: st?.progress ?? job.progress,
        error: { code: "timeout", message: `The provider did not finish the video within ${Math.round(this.ctx.config.video.maxAgeMs / 1000)} s.` },
      };
    }
    if (!st || !isTerminal(st.status)) {
      await this.renewIfLoopDown(job);
      return this.update(job, { status: st?.status ?? job.status, progress: st?.progress ?? job.progress, release_claim: true });
    }
    return this.finish(job, st);
  }

  /**
   * The renewal loop could not read its due holds last time (a control-plane of the release before
   * it has no ClaimVideoHolds: a rollback): the refresh renews the job's hold, as before the loop.
   */
  private async renewIfLoopDown(job: VideoJob): Promise<void> {
    if (this.holds.reading) return;
    await this.renewHolds(job).catch((err: unknown) => this.ctx.log.warn({ err, job_id: job.id }, "video job hold renewal on refresh failed"));
  }

  /** The job's leases (its credit's and each budget's) renewed for another lifetime; "gone" when the ledger let any of them go. */
  private async renewHolds(job: VideoJob): Promise<"renewed" | "gone"> {
    const renewed = await Promise.all(leaseIdsOf(job).map((id) => this.ctx.leases.dedicated.renew(job.org_id, id)));
    return renewed.every((r) => r === "renewed") ? "renewed" : "gone";
  }

  /**
   * What the ledger let go of a job's holds, held again for `need`: its credit lease and each budget
   * lease found gone (a budget in the window current now). All or none: on a refusal the new leases
   * are given back and the refusal thrown. Undefined fields: that hold is still the job's.
   */
  private async holdGone(job: VideoJob, need: number): Promise<{ leaseId?: string; budgets?: BudgetHold[] }> {
    const { leases } = this.ctx;
    const holds = budgetHoldsOf(job);
    const [credit, ...budgets] = await Promise.all([job.lease_id, ...holds.map((h) => h.lease_id)].map((id) => leases.dedicated.renew(job.org_id, id)));
    const made: string[] = [];
    try {
      const leaseId = credit === "gone" ? (await leases.dedicated.hold(job.org_id, need)).leaseId : undefined;
      if (leaseId) made.push(leaseId);
      if (!budgets.includes("gone")) return { ...(leaseId ? { leaseId } : {}) };
      const again: BudgetHold[] = [];
      for (const [i, h] of holds.entries()) {
        const held = budgets[i] === "gone" ? await leases.dedicated.holdBudget(job.org_id, h, need) : h;
        if (held !== h) made.push(held.lease_id);
        again.push(held);
      }
      return { ...(leaseId ? { leaseId } : {}), budgets: again };
    } catch (err) {
      await Promise.all(made.map((id) => leases.dedicated.release(job.org_id, id, 0).catch(() => undefined)));
      throw err;
    }
  }

  /**
   * The renewal loop found one of the job's leases gone at the ledger (it expired: nobody renewed it
   * for a lease's lifetime). Under a claim: a new hold for what the job can still cost (its maximum
   * while it runs, its cost once completed) of each lease gone, the credit's or a budget's, recorded
   * on the job so its usage event settles against it; when the organization's credit or a budget no
   * longer covers it, the job is stopped at its provider (after a status check: a job the provider
   * finished is billed) and failed with `hold_lapsed`.
   */
  private async holdAgain(due: VideoJob): Promise<"lapsed" | "released"> {
    const [job] = (await this.ctx.control.ClaimVideoJobs({ holder: this.holder, job_id: due.id, stale_after_ms: 0, claim_ms: this.ctx.config.video.claimMs, limit: 1 })).jobs;
    if (!job) {
      // Settled meanwhile (its lease released with it), or under another claim: due again next period.
      const now = await this.ctx.control.GetVideoJob({ org_id: due.org_id, job_id: due.id });
      return now.settled ? "released" : "lapsed";
    }
    if (job.lease_id !== due.lease_id || job.budgets_json !== due.budgets_json) {
      // Held again by another replica already.
      await this.update(job, { release_claim: true });
      return "released";
    }
    await this.underClaim(job, async () => {
      const need = !isTerminal(job.status) ? job.max_cost_minor : job.status === "completed" ? job.cost_minor : 0;
      // A failed or cancelled job costs nothing: there is nothing left to hold, only its record to publish.
      if (need === 0) return this.settle(job);
      let again: { leaseId?: string; budgets?: BudgetHold[] };
      try {
        again = await this.holdGone(job, need);
      } catch (err) {
        const refused = err instanceof GatewayError && (err.code === "insufficient_credits" || err.code === "budget_exceeded");
        if (!refused) throw err;
        this.ctx.log.warn({ job_id: job.id, lease_id: job.lease_id, need, code: err.code }, "video job hold lapsed and the balance or a budget no longer covers it");
        // A completed job is still billed (its usage is on its way); an unfinished one is stopped.
        if (isTerminal(job.status)) return this.update(job, { release_claim: true });
        return this.stopJob(job, HOLD_LAPSED);
      }
      this.ctx.log.warn({ job_id: job.id, old_lease_id: job.lease_id, lease_id: again.leaseId, budgets: again.budgets?.length ?? 0, need }, "video job hold lapsed at the ledger; held again");
      return this.update(job, { ...(again.leaseId ? { lease_id: again.leaseId } : {}), ...(again.budgets ? { budgets_json: JSON.stringify(again.budgets) } : {}), release_claim: true });
    });
    return "lapsed";
  }

  /**
   * Stops a claimed, unfinished job: the provider's status first, since recording a cancel for a job
   * the provider finished would bill a delivered video at 0 — a finished job is recorded as it
   * finished. A provider that does not answer leaves the job as it is (503: retry). Otherwise the
   * provider is asked to stop (best effort), and the job recorded cancelled (the caller) or failed
   * (`hold_lapsed`) and settled at nothing to the caller.
   */
  private async stopJob(job: VideoJob, reason: StopReason): Promise<VideoJob> {
    const found = jobTarget(this.ctx, job);
    if (found) {
      let st: VideoStatus;
      try {
        st = await this.providerStatus(found, job);
      } catch (err) {
        this.ctx.log.warn({ err: err instanceof GatewayError ? err.message : err, job_id: job.id }, "video status call before a cancel failed");
        throw new GatewayError("service_unavailable", "The video provider did not say whether the job has finished; retry the cancel shortly.", { retry_after_s: 2 });
      }
      if (isTerminal(st.status)) return this.finish(job, st);
      await found.adapter.cancel(this.http(found.target, CANCEL_TIMEOUT_MS), found.target, jobRef(job));
    }
    const stopped =
      reason === "cancelled"
        ? await this.update(job, { status: "cancelled", progress: job.progress, error_code: "cancelled", error_message: "The job was cancelled by the caller." })
        : await this.update(job, {
            status: "failed",
            progress: job.progress,
            error_code: HOLD_LAPSED,
            error_message: "The job's credit hold lapsed and the organization's balance no longer covers it; the job was stopped at the provider.",
          });
    return this.settleOrLeave(stopped);
  }

  /**
   * Settles a job whose end is recorded. When settling fails (the ledger or NATS away), the recorded
   * end still stands and is what the caller is answered — a cancel that answered 503 after its
   * record was written would have the caller's retry refused as "already cancelled" — and the job,
   * unsettled with its claim released, is settled by the next refresh that claims it.
   */
  private async settleOrLeave(job: VideoJob): Promise<VideoJob> {
    try {
      return await this.settle(job);
    } catch (err) {
      this.ctx.log.warn({ err: err instanceof GatewayError ? err.message : err, job_id: job.id }, "video job ended; settling it failed and is left to the next refresh");
      await this.update(job, { release_claim: true }).catch(() => undefined);
      return job;
    }
  }

  /** Records a provider's final answer (cost: billed seconds × the job's price, never above its hold), then settles. */
  private async finish(job: VideoJob, st: VideoStatus): Promise<VideoJob> {
    const seconds = st.status === "completed" ? Math.min(st.durationS ?? job.duration_s, job.duration_s) : 0;
    const finished = await this.update(job, {
      status: st.status,
      progress: st.progress,
      error_code: st.error?.code ?? "",
      error_message: st.error?.message ?? "",
      outputs_json: JSON.stringify(st.outputs ?? []),
      cost_minor: Math.min(seconds * job.price_minor_per_second, job.max_cost_minor),
      duration_s: seconds,
    });
    return this.settleOrLeave(finished);
  }

  /**
   * Publishes a finished job's usage event (keyed by the job id: billed once however often this
   * runs) and, once JetStream acknowledged a completed job's event, releases its hold; then marks it
   * settled. A completion that went to the spool keeps its hold (the renewal loop keeps it alive)
   * and the job unsettled, so the next claim publishes it again. A failed or cancelled job's event
   * costs nothing: its hold is released at once.
   */
  private async settle(job: VideoJob): Promise<VideoJob> {
    const completed = job.status === "completed";
    if ((await this.ctx.publisher.publish(jobUsageEvent(job))) === "spooled" && completed) {
      await this.renewIfLoopDown(job);
      return this.update(job, { release_claim: true });
    }
    const consumed = completed ? job.cost_minor : 0;
    await Promise.all(leaseIdsOf(job).map((id) => this.ctx.leases.dedicated.release(job.org_id, id, consumed)));
    return this.update(job, { settled: true, release_claim: true });
  }

  /** Runs `fn` under the job's claim; if it fails, the claim is given back (best effort) so the job is not left waiting for it to run out. */
  private async underClaim<T>(job: VideoJob, fn: () => Promise<T>): Promise<T> {
    try {
      return await fn();
    } catch (err) {
      await this.update(job, { release_claim: true }).catch(() => undefined);
      throw err;
    }
  }

  private providerStatus(found: { target: UpstreamTarget; adapter: VideoAdapter }, job: VideoJob): Promise<VideoStatus> {
    return found.adapter.status(this.http(found.target, Math.min(this.ctx.config.upstreamTimeoutMs, 30_000)), found.target, jobRef(job));
  }

  private http(target: UpstreamTarget, timeoutMs: number): VideoHttp {
    return videoHttp(this.ctx, target, timeoutMs, this.stopping.signal);
  }

  private update(job: VideoJob, u: Update): Promise<VideoJob> {
    return this.ctx.control.UpdateVideoJob({
      job_id: job.id,
      holder: this.holder,
      claim_token: job.claim_token,
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
      lease_id: "",
      budgets_json: "",
      ...u,
    });
  }
}
