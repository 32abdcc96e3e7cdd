import type { Logger } from "@gateway/observability";
import type { VideoJob } from "@gateway/proto";

/** Due holds asked for at a time. */
export const HOLD_PAGE = 100;
/** Pages one pass takes at most (what is left stays due: the next pass, or another replica, takes it). */
export const HOLD_MAX_PAGES = 20;

/** What the renewal loop needs; the video jobs (video/jobs.ts) give it. */
export interface HoldRenewalDeps {
  log: Logger;
  /** Every unsettled job's hold is renewed this often, ms (below half the lease's lifetime). */
  renewEveryMs: number;
  /** Renewals in flight at once. */
  concurrency: number;
  /** Takes up to `limit` jobs whose hold is due, each due again renewEveryMs later (ClaimVideoHolds). */
  due(limit: number): Promise<VideoJob[]>;
  /** Renews the job's lease at the ledger; "gone" when the ledger no longer holds it open. */
  renew(job: VideoJob): Promise<"renewed" | "gone">;
  /**
   * The job's lease is gone at the ledger: hold again, or stop the job at its provider. "released"
   * when nothing had to be done (the job was settled meanwhile, its lease released with it).
   */
  lapsed(job: VideoJob): Promise<"lapsed" | "released">;
  /** Counts each renewal's result. */
  count(result: RenewalResult): void;
}

/** renewed; lapsed (the ledger had let the lease go: held again, or the job stopped); released (settled meanwhile); failed (the ledger did not answer: due again next period). */
export type RenewalResult = "renewed" | "lapsed" | "released" | "failed";

/**
 * Keeps every unsettled video job's hold alive at the ledger, apart from status polling: a job whose
 * provider is slow to answer, or one of thousands waiting for a refresh, holds its credit all the
 * same. Due holds come from the control-plane, each to one replica per period, so the work spreads
 * over the replicas and a replica that dies leaves its share due again one period later (the lease
 * outlives two periods). A pass takes the due holds in pages and renews each page a bounded number at
 * a time; every call has its client's deadline.
 */
export class HoldRenewal {
  private timer: NodeJS.Timeout | undefined;
  private pass: Promise<unknown> | undefined;
  private stopped = false;
  /** Whether the last pass could read the due holds (the refreshes renew holds themselves while it cannot). */
  reading = true;

  constructor(private readonly deps: HoldRenewalDeps) {}

  start(): void {
    // Several looks per period: a due hold waits at most a quarter of it.
    this.timer = setInterval(
      () => {
        if (!this.pass) this.pass = this.run().finally(() => (this.pass = undefined));
      },
      Math.max(20, Math.floor(this.deps.renewEveryMs / 4)),
    );
    this.timer.unref();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.pass;
  }

  /** One pass over the holds due now. */
  async run(): Promise<Record<RenewalResult, number>> {
    const done = { renewed: 0, lapsed: 0, released: 0, failed: 0 };
    for (let page = 0; page < HOLD_MAX_PAGES && !this.stopped; page++) {
      let jobs: VideoJob[];
      try {
        jobs = await this.deps.due(HOLD_PAGE);
        this.reading = true;
      } catch (err) {
        this.reading = false;
        this.deps.log.warn({ err }, "video holds due for renewal could not be read; the next pass retries");
        return done;
      }
      await eachBounded(jobs, this.deps.concurrency, async (job) => {
        const result = await this.one(job);
        done[result]++;
        this.deps.count(result);
      });
      if (jobs.length < HOLD_PAGE) break;
    }
    return done;
  }

  private async one(job: VideoJob): Promise<RenewalResult> {
    try {
      if ((await this.deps.renew(job)) === "renewed") return "renewed";
    } catch (err) {
      // The ledger did not answer: the hold may well be there. Due again next period, within the lease's life.
      this.deps.log.warn({ err, job_id: job.id, lease_id: job.lease_id }, "video job hold renewal failed; retried next period");
      return "failed";
    }
    try {
      return await this.deps.lapsed(job);
    } catch (err) {
      this.deps.log.warn({ err, job_id: job.id, lease_id: job.lease_id }, "video job whose hold lapsed could not be held again or stopped; retried next period");
      return "lapsed";
    }
  }
}

/** Runs `fn` over `items`, at most `limit` at a time. */
export async function eachBounded<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await fn(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(Math.max(1, limit), items.length) }, worker));
}
