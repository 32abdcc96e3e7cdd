import { sql } from "@gateway/db";
import type { LedgerContext } from "../context.js";
import type { LeaseRow } from "../db/schema.js";
import { releaseHeld } from "../accounts.js";

/** Released leases still waiting for usage after this long are zeroed: their events have arrived or never will. */
const RELEASED_GRACE_MS = 10 * 60_000;

/**
 * Releases the holds of expired leases (a crashed or partitioned replica's) and of released leases
 * whose last usage never came. Rows are claimed with SKIP LOCKED, so several ledgers sweep safely.
 */
export class LeaseSweeper {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;

  constructor(private readonly ctx: LedgerContext) {}

  start(): void {
    this.timer = setInterval(() => {
      if (!this.running) this.running = this.sweep().then(() => undefined).catch((err: unknown) => this.ctx.log.warn({ err }, "lease sweep failed")).finally(() => (this.running = undefined));
    }, this.ctx.config.sweepIntervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** One pass; returns how many leases it closed. */
  async sweep(): Promise<number> {
    const stale = await this.ctx.db
      .selectFrom("leases")
      .select(["id", "org_id"])
      .where((eb) =>
        eb.or([
          eb.and([eb("status", "=", "open"), eb("expires_at", "<", new Date())]),
          eb.and([eb("status", "=", "released"), eb("remaining_minor", ">", 0), eb("released_at", "<", new Date(Date.now() - RELEASED_GRACE_MS))]),
        ]),
      )
      .limit(500)
      .execute();
    let closed = 0;
    for (const { id, org_id } of stale) {
      await this.ctx.db.transaction().execute(async (trx) => {
        // Account first (same lock order as usage application), then the lease if still stale.
        const acc = await sql`SELECT org_id FROM accounts WHERE org_id = ${org_id} FOR UPDATE SKIP LOCKED`.execute(trx);
        if (acc.rows.length === 0) return;
        const l = (await sql<LeaseRow>`SELECT * FROM leases WHERE id = ${id} FOR UPDATE SKIP LOCKED`.execute(trx)).rows[0];
        if (!l) return;
        const expired = l.status === "open" && l.expires_at.getTime() < Date.now();
        const lingering = l.status === "released" && l.remaining_minor > 0;
        if (!expired && !lingering) return;
        await releaseHeld(trx, org_id, l.remaining_minor);
        await sql`UPDATE leases SET remaining_minor = 0, status = ${expired ? "expired" : "released"}, released_at = COALESCE(released_at, now()) WHERE id = ${id}`.execute(trx);
        closed++;
      });
    }
    return closed;
  }
}
