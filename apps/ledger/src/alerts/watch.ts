import { sql } from "@gateway/db";
import type { LedgerContext } from "../context.js";

/** How often every current window and account with thresholds is checked (a crossing missed by a crash), ms. */
const SWEEP_MS = 30_000;
/** The least time between two passes, ms: an alert waits at most this long after its spend is durable. */
const PASS_GAP_MS = 250;

/**
 * Finds the thresholds that committed spend crossed (docs/billing.md, "Alerts") and writes each
 * crossing once to the `alerts` outbox; the announcer publishes it on `ledger.v1.alert`.
 * - A budget window crosses p % when its spend reaches p % of its cap; each percentage once per
 *   window (`alerted_pct`), and a batch crossing several makes one alert each.
 * - An account crosses a balance threshold when its balance falls to it or below; each once until
 *   the balance is above it again (a top-up re-arms it).
 * Each pass is one transaction per table that locks the rows it changes in key order (the usage
 * transaction's order), so it never deadlocks with it, and the alert's id is made of what it is
 * (window and percentage; threshold and lifetime top-ups), so two ledgers finding the same crossing
 * write it once. It runs after applied batches (at most every 250 ms, for their organizations), and
 * every 30 s for all.
 */
export class AlertWatch {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private pending = new Set<string>();
  private all = false;
  private lastPass = 0;
  private waiting: NodeJS.Timeout | undefined;

  constructor(
    private readonly ctx: LedgerContext,
    private readonly announce: () => void,
  ) {}

  start(): void {
    this.timer = setInterval(() => {
      this.all = true;
      this.kick();
    }, SWEEP_MS);
    this.timer.unref();
    this.all = true;
    this.kick();
  }

  /** Checks these organizations soon (after their usage or a top-up committed); coalesces with a pass already running. */
  touched(orgIds: Iterable<string>): void {
    for (const o of orgIds) this.pending.add(o);
    this.kick();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (this.waiting) clearTimeout(this.waiting);
    await this.running;
  }

  private kick(): void {
    if (this.running || this.waiting || (!this.all && this.pending.size === 0)) return;
    // At most one pass per PASS_GAP_MS: under a backlog, many batches' organizations go in one pass.
    const wait = this.lastPass + PASS_GAP_MS - Date.now();
    if (wait > 0) {
      this.waiting = setTimeout(() => {
        this.waiting = undefined;
        this.kick();
      }, wait);
      this.waiting.unref();
      return;
    }
    this.lastPass = Date.now();
    const orgs = this.all ? undefined : [...this.pending];
    this.all = false;
    this.pending.clear();
    this.running = this.pass(orgs)
      .then((made) => {
        if (made > 0) this.announce();
      })
      .catch((err: unknown) => this.ctx.log.warn({ err }, "alert check failed; the next pass retries"))
      .finally(() => {
        this.running = undefined;
        this.kick();
      });
  }

  /** One pass over `orgs` (all when undefined); returns how many alerts it made. */
  async pass(orgs?: string[]): Promise<number> {
    return (await this.budgets(orgs)) + (await this.balances(orgs));
  }

  private async budgets(orgs?: string[]): Promise<number> {
    const only = orgs ? sql`AND w.org_id = ANY(${orgs}::text[])` : sql``;
    return this.ctx.db.transaction().execute(async (trx) => {
      const due = await sql<{ org_id: string; scope: string; window_start: Date }>`
        SELECT w.org_id, w.scope, w.window_start FROM budget_windows w
        WHERE cardinality(w.alert_pcts) > 0 AND (w.window_end IS NULL OR w.window_end > now()) AND w.limit_minor > 0 ${only}
          AND EXISTS (SELECT 1 FROM unnest(w.alert_pcts) p WHERE p > w.alerted_pct AND w.spent_minor * 100 >= w.limit_minor * p)
        ORDER BY w.org_id, w.scope, w.window_start
        FOR UPDATE`.execute(trx);
      if (due.rows.length === 0) return 0;
      const made = await sql<{ id: string }>`
        WITH keys AS (SELECT * FROM unnest(${due.rows.map((r) => r.org_id)}::text[], ${due.rows.map((r) => r.scope)}::text[], ${due.rows.map((r) => r.window_start)}::timestamptz[]) AS k(org_id, scope, window_start)),
        crossed AS (
          SELECT w.org_id, w.scope, w.window_start, w.window_end, w.limit_minor, w.spent_minor, p
          FROM budget_windows w JOIN keys k USING (org_id, scope, window_start), unnest(w.alert_pcts) p
          WHERE p > w.alerted_pct AND w.spent_minor * 100 >= w.limit_minor * p
        ), marked AS (
          UPDATE budget_windows w SET alerted_pct = c.top
          FROM (SELECT org_id, scope, window_start, max(p) AS top FROM crossed GROUP BY 1, 2, 3) c
          WHERE w.org_id = c.org_id AND w.scope = c.scope AND w.window_start = c.window_start
        )
        INSERT INTO alerts (id, org_id, kind, scope, window_start, window_end, threshold_pct, limit_minor, spent_minor)
        SELECT 'alert_' || left(md5(c.org_id || '/' || c.scope || '/' || extract(epoch FROM c.window_start)::text || '/' || c.p::text), 24),
          c.org_id, 'budget', c.scope, c.window_start, c.window_end, c.p, c.limit_minor, c.spent_minor
        FROM crossed c ORDER BY c.org_id, c.scope, c.p
        ON CONFLICT (id) DO NOTHING
        RETURNING id`.execute(trx);
      return made.rows.length;
    });
  }

  private async balances(orgs?: string[]): Promise<number> {
    const only = orgs ? sql`AND a.org_id = ANY(${orgs}::text[])` : sql``;
    return this.ctx.db.transaction().execute(async (trx) => {
      const due = await sql<{ org_id: string }>`
        SELECT a.org_id FROM accounts a
        WHERE (cardinality(a.balance_alerts_minor) > 0 OR a.balance_alerted_minor IS NOT NULL) ${only}
          AND (a.balance_minor > a.balance_alerted_minor
               OR EXISTS (SELECT 1 FROM unnest(a.balance_alerts_minor) t WHERE a.balance_minor <= t AND (a.balance_alerted_minor IS NULL OR t < a.balance_alerted_minor)))
        ORDER BY a.org_id
        FOR UPDATE`.execute(trx);
      if (due.rows.length === 0) return 0;
      const ids = due.rows.map((r) => r.org_id);
      // Above the last threshold announced again (a top-up): the thresholds below the balance are re-armed.
      await sql`
        UPDATE accounts SET balance_alerted_minor = (SELECT min(t) FROM unnest(balance_alerts_minor) t WHERE t >= balance_minor)
        WHERE org_id = ANY(${ids}::text[]) AND balance_minor > balance_alerted_minor`.execute(trx);
      const made = await sql<{ id: string }>`
        WITH crossed AS (
          SELECT a.org_id, a.balance_minor, a.topped_up_minor, t
          FROM accounts a, unnest(a.balance_alerts_minor) t
          WHERE a.org_id = ANY(${ids}::text[]) AND a.balance_minor <= t AND (a.balance_alerted_minor IS NULL OR t < a.balance_alerted_minor)
        ), marked AS (
          UPDATE accounts a SET balance_alerted_minor = c.low FROM (SELECT org_id, min(t) AS low FROM crossed GROUP BY 1) c WHERE a.org_id = c.org_id
        )
        INSERT INTO alerts (id, org_id, kind, threshold_minor, balance_minor)
        SELECT 'alert_' || left(md5(c.org_id || '/balance/' || c.t::text || '/' || c.topped_up_minor::text), 24), c.org_id, 'balance', c.t, c.balance_minor
        FROM crossed c ORDER BY c.org_id, c.t DESC
        ON CONFLICT (id) DO NOTHING
        RETURNING id`.execute(trx);
      return made.rows.length;
    });
  }
}
