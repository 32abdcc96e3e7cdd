import { setTimeout as sleep } from "node:timers/promises";
import { sql, type Kysely } from "@gateway/db";
import type { Logger } from "@gateway/observability";
import type { LedgerDb } from "../db/schema.js";
import { FEED_BLOCK, FEED_LOCK } from "./lock.js";

/** Candidates kept while a transaction stays open (the oldest are the likeliest to pass first). */
const MAX_CANDIDATES = 64;
/** How often a reader waiting for the watermark looks at the lock's holders again, ms. */
const RECHECK_MS = 5;

interface Candidate {
  /** The sequence's last value when it was read. */
  seq: number;
  /** The transactions (virtual ids) holding the feed lock right after: those that may have drawn up to `seq` and not ended. */
  holders: Set<string>;
}

/**
 * How far the feed may be served: the highest feed number below which no transaction that drew one
 * is still open (docs/billing.md, "The feed"). Numbers come from one sequence, drawn by transactions
 * that commit in any order; each holds the shared advisory lock FEED_LOCK from before it draws until
 * it ends.
 *
 * Each look reads V, the end of the last block of numbers the sequence handed out (lock.ts,
 * FEED_BLOCK), then the lock's holders H: a transaction that drew a number up to V had taken the lock
 * before V was read, so it is in H unless it had already ended.
 * Once every transaction of H has ended, every number up to V is committed (or rolled back: a gap),
 * and V is written to `feed_state.visible_through`, which the feed and the `billing_feed` view
 * read: a reader who sees it sees every row below it. Candidates wait in order, so a transaction
 * left open holds the watermark at the last value read before it took the lock, not everything.
 * The writers pay only the lock's entry; the watermark reads `pg_locks`, never takes the lock.
 */
export class FeedWatermark {
  private readonly candidates: Candidate[] = [];
  /** The looks, one after another (they share the candidates); the timer's is skipped while one is queued. */
  private chain: Promise<unknown> = Promise.resolve();
  private queued = 0;
  private timer: NodeJS.Timeout | undefined;
  /** The last value written or read; never moves back. */
  visibleThrough = 0;

  constructor(
    private readonly db: Kysely<LedgerDb>,
    private readonly intervalMs: number,
    private readonly log: Logger,
  ) {}

  /** Advances it every interval (every ledger does: the moves are monotonic, so several are harmless). */
  start(): void {
    this.timer = setInterval(() => {
      if (this.queued > 0) return;
      this.advance(0).catch((err: unknown) => this.log.debug({ err: String(err) }, "feed watermark not advanced"));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.chain.catch(() => undefined);
  }

  /**
   * Moves the watermark as far as it can now, waiting up to `waitMs` for the transactions open at
   * this look to end; resolves with it. A look begins after the call (after any look already
   * running), so once it resolves, everything committed before the call is below the watermark
   * unless a transaction that drew a number is still open.
   */
  advance(waitMs: number): Promise<number> {
    this.queued++;
    const look = this.chain.then(() => this.look(waitMs)).finally(() => this.queued--);
    this.chain = look.catch(() => undefined);
    return look;
  }

  private async look(waitMs: number): Promise<number> {
    // Where another ledger (or this one before a restart) left it.
    if (this.visibleThrough === 0) {
      const stored = await sql<{ v: string }>`SELECT visible_through AS v FROM feed_state`.execute(this.db);
      this.visibleThrough = Number(stored.rows[0]?.v ?? 0);
    }
    // The order matters: the last value first, then the holders.
    const r = await sql<{ last: string; called: boolean }>`SELECT last_value AS last, is_called AS called FROM feed_seq`.execute(this.db);
    // The last block drawn, whole: no number drawn so far is above its end.
    const seq = r.rows[0]!.called ? Number(r.rows[0]!.last) + FEED_BLOCK - 1 : 0;
    let holders = await this.holders();
    if (seq > (this.candidates.at(-1)?.seq ?? this.visibleThrough)) {
      if (this.candidates.length >= MAX_CANDIDATES) this.candidates.pop();
      this.candidates.push({ seq, holders });
    }
    const until = Date.now() + waitMs;
    for (;;) {
      let passed = 0;
      for (const c of this.candidates) if (![...c.holders].some((h) => holders.has(h))) passed = Math.max(passed, c.seq);
      if (passed > 0) {
        while (this.candidates.length > 0 && this.candidates[0]!.seq <= passed) this.candidates.shift();
        // Only the order of the feed depends on this write, not the money: it need not wait for its fsync.
        const w = await this.db.transaction().execute(async (trx) => {
          await sql`SELECT set_config('synchronous_commit', 'off', true)`.execute(trx);
          const u = await sql<{ v: string }>`
            UPDATE feed_state SET visible_through = GREATEST(visible_through, ${passed}), advanced_at = now() RETURNING visible_through AS v`.execute(trx);
          return Number(u.rows[0]!.v);
        });
        this.visibleThrough = Math.max(this.visibleThrough, w);
      }
      if (this.candidates.length === 0 || Date.now() >= until) return this.visibleThrough;
      await sleep(RECHECK_MS);
      holders = await this.holders();
    }
  }

  /** The transactions holding the feed lock now (virtual transaction ids). */
  private async holders(): Promise<Set<string>> {
    const r = await sql<{ vx: string }>`
      SELECT virtualtransaction AS vx FROM pg_locks
      WHERE locktype = 'advisory' AND classid = ${FEED_LOCK.classid}::oid AND objid = hashtext(current_schema())::oid AND objsubid = 2`.execute(this.db);
    return new Set(r.rows.map((x) => x.vx));
  }
}
