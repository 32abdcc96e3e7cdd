import { sql } from "@gateway/db";
import type { LedgerContext } from "../context.js";
import { releaseHeld } from "../accounts.js";
import type { LeaseRow } from "../db/schema.js";
import { releaseBudgetHeld } from "./budget-lease.js";
import { expirePromoCredit } from "../adjustments/promo-expiry.js";

/** How often promotional grants past their expiry are looked for, ms. */
const PROMO_EVERY_MS = 1_000;

/**
 * Closes expired leases and releases the holds of closed leases once their usage can no longer
 * arrive. The rule (docs/billing.md, "When a hold is released"): a closed lease keeps its remaining
 * hold until the usage consumer has applied every event published before the lease's
 * `settle_after` (expiry + the longest time usage can take to be published, or the release time +
 * clock skew). No timer releases credit whose events may still be on the way: while the ledger
 * lags or NATS is down, the watermark stands still and so do the holds. Rows are claimed with
 * SKIP LOCKED, so several ledgers sweep safely.
 */
export class LeaseSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private promoDue = 0;

  constructor(private readonly ctx: LedgerContext) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.running)
        this.running = this.sweep()
          .then(() => undefined)
          .catch((err: unknown) => this.ctx.log.warn({ err }, "lease sweep failed"))
          .finally(() => (this.running = undefined));
    }, this.ctx.config.sweepIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many closed leases had their hold released. */
  async sweep(): Promise<number> {
    await this.expire();
    // Promotional credit past its expiry, at most every PROMO_EVERY_MS (what holds cover waits for them).
    if (Date.now() >= this.promoDue) {
      this.promoDue = Date.now() + PROMO_EVERY_MS;
      await expirePromoCredit(this.ctx).catch((err: unknown) => this.ctx.log.warn({ err }, "promotional credit expiry failed; retried at the next pass"));
    }
    await this.ctx.watermark.refresh().catch((err: unknown) => this.ctx.log.debug({ err: String(err) }, "usage watermark not refreshed"));
    return this.settle(this.ctx.watermark.appliedThrough);
  }

  /** Open leases past their expiry stop being usable; their hold stays (usage may be on its way). */
  private async expire(): Promise<void> {
    const arrival = this.ctx.config.usageArrivalMs;
    await sql`
      UPDATE leases SET status = 'expired', released_at = now(), settle_after = expires_at + make_interval(secs => ${arrival / 1000})
      WHERE id IN (SELECT id FROM leases WHERE status = 'open' AND expires_at < now() ORDER BY id LIMIT 500 FOR UPDATE SKIP LOCKED)`.execute(this.ctx.db);
  }

  /** Releases what closed leases still hold, where everything published before settle_after is applied. */
  private async settle(appliedThroughMs: number): Promise<number> {
    if (appliedThroughMs <= 0) return 0;
    const through = new Date(appliedThroughMs);
    const due = await sql<{ org_id: string }>`
      SELECT DISTINCT org_id FROM (
        SELECT org_id FROM leases WHERE status <> 'open' AND remaining_minor > 0 AND settle_after <= ${through} LIMIT 500
      ) d`.execute(this.ctx.db);
    let settled = 0;
    for (const { org_id } of due.rows) {
      settled += await this.ctx.db.transaction().execute(async (trx) => {
        // Account first (the lock order of usage application), then its due leases by id.
        const acc = await sql`SELECT org_id FROM accounts WHERE org_id = ${org_id} FOR UPDATE SKIP LOCKED`.execute(trx);
        if (acc.rows.length === 0) return 0;
        // Credit leases, then budget leases, each in id order, as usage application locks them;
        // then a budget lease's window.
        const rows = await sql<Pick<LeaseRow, "id" | "org_id" | "status" | "remaining_minor" | "scope" | "window_start">>`
          SELECT id, org_id, status, remaining_minor, scope, window_start FROM leases
          WHERE org_id = ${org_id} AND status <> 'open' AND remaining_minor > 0 AND settle_after <= ${through}
          ORDER BY scope <> '', id FOR UPDATE`.execute(trx);
        if (rows.rows.length === 0) return 0;
        await releaseHeld(
          trx,
          org_id,
          rows.rows.reduce((s, l) => s + (l.scope ? 0 : l.remaining_minor), 0),
        );
        for (const l of rows.rows) if (l.scope) await releaseBudgetHeld(trx, l, l.remaining_minor);
        await sql`UPDATE leases SET remaining_minor = 0 WHERE id = ANY(${rows.rows.map((l) => l.id)}::text[])`.execute(trx);
        for (const l of rows.rows) this.ctx.metrics.leasesSettled.inc({ how: l.status });
        return rows.rows.length;
      });
    }
    return settled;
  }
}
