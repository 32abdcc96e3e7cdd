import { jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { sql } from "@gateway/db";
import { LEDGER_ALERT_SUBJECT, LEDGER_BALANCE_SUBJECT, LEDGER_JOURNAL_SUBJECT, encodeEvent, type LedgerAlertV1, type LedgerBalanceV1, type LedgerJournalV1 } from "@gateway/events";
import type { LedgerContext } from "../context.js";

/** Journal transactions read, published and marked per round of the outbox. */
const JOURNAL_PAGE = 200;

/**
 * The top-up outbox: every committed top-up is published to JetStream (`ledger.v1.balance`, message
 * id = top-up id, so a repeat is dropped) and only then marked announced. A crash or a NATS outage
 * delays the announcement; it never loses it.
 */
export class TopUpAnnouncer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(
    private readonly ctx: LedgerContext,
    private readonly nc: NatsConnection,
  ) {}

  start(): void {
    this.timer = setInterval(() => this.kick(), 1_000);
    this.timer.unref();
    this.kick();
  }

  /** Announce now (after a top-up commits); coalesces with a pass already running. */
  kick(): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.pass()
      .catch((err: unknown) => this.ctx.log.warn({ err }, "top-up announcement failed; will retry"))
      .finally(() => {
        this.running = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  private async pass(): Promise<void> {
    const js = jetstream(this.nc);
    // No transaction is held while publishing: several ledgers may announce the same top-up, and
    // that is harmless (JetStream drops the repeated message id; the consumer is idempotent).
    await this.publishJournal(js);
    await this.publishAlerts(js);
    for (;;) {
      const rows = await sql<{ id: string; org_id: string }>`
        SELECT id, org_id FROM top_ups WHERE announced_at IS NULL ORDER BY created_at LIMIT 50`.execute(this.ctx.db);
      if (rows.rows.length === 0) return;
      for (const row of rows.rows) {
        const acc = await this.ctx.db.selectFrom("accounts").select(["balance_minor", "topped_up_minor"]).where("org_id", "=", row.org_id).executeTakeFirst();
        const ev: LedgerBalanceV1 = { version: 1, org_id: row.org_id, balance_minor: acc?.balance_minor ?? 0, topped_up_minor: acc?.topped_up_minor ?? 0, reason: "top_up" };
        await js.publish(LEDGER_BALANCE_SUBJECT, encodeEvent(ev), { msgID: row.id, timeout: 2_000 });
        await this.ctx.db.updateTable("top_ups").set({ announced_at: new Date() }).where("id", "=", row.id).execute();
      }
    }
  }

  /**
   * The alerts outbox (alerts/watch.ts): each crossing on `ledger.v1.alert`, message id = alert id,
   * oldest first, then marked announced. At least once: a publish that fails is retried next pass.
   */
  private async publishAlerts(js: ReturnType<typeof jetstream>): Promise<void> {
    for (;;) {
      const rows = await this.ctx.db.selectFrom("alerts").selectAll().where("announced_at", "is", null).orderBy("created_at").limit(100).execute();
      if (rows.length === 0) return;
      for (const a of rows) {
        const ev: LedgerAlertV1 = {
          version: 1,
          alert_id: a.id,
          org_id: a.org_id,
          kind: a.kind,
          ...(a.kind === "budget"
            ? {
                scope: a.scope ?? "",
                window_start_ms: Math.max(0, a.window_start?.getTime() ?? 0),
                window_end_ms: a.window_end?.getTime() ?? 0,
                threshold_pct: a.threshold_pct ?? 0,
                limit_minor: Number(a.limit_minor ?? 0),
                spent_minor: Number(a.spent_minor ?? 0),
              }
            : { threshold_minor: Number(a.threshold_minor ?? 0), balance_minor: Number(a.balance_minor ?? 0) }),
          created_at_ms: a.created_at.getTime(),
        };
        await js.publish(LEDGER_ALERT_SUBJECT, encodeEvent(ev), { msgID: a.id, timeout: 2_000 });
        await this.ctx.db.updateTable("alerts").set({ announced_at: new Date() }).where("id", "=", a.id).execute();
      }
    }
  }

  /**
   * The journal outbox: each transaction's entries, once, on `ledger.v1.journal` (message id
   * `journal-<txn_id>`), oldest first — the stream the billing team consumes. A page of up to
   * JOURNAL_PAGE transactions costs one read and one update, not two statements per transaction:
   * usage is journaled per applied batch, and at moderate load that is hundreds of small postings
   * a second. A page's publishes go out together, oldest first; one that fails is published again
   * on the next pass, possibly after younger ones (consumers key on txn_id, docs/billing.md).
   */
  private async publishJournal(js: ReturnType<typeof jetstream>): Promise<void> {
    for (;;) {
      const rows = await sql<{ txn_id: string; kind: LedgerJournalV1["kind"]; account: string; amount_minor: number; created_at: Date }>`
        SELECT txn_id, kind, account, amount_minor, created_at FROM journal_entries
        WHERE txn_id IN (SELECT txn_id FROM journal_entries WHERE published_at IS NULL GROUP BY txn_id ORDER BY min(id) LIMIT ${JOURNAL_PAGE})
        ORDER BY id`.execute(this.ctx.db);
      if (rows.rows.length === 0) return;
      // By the first entry of each transaction: the order of min(id).
      const txns = new Map<string, LedgerJournalV1>();
      for (const e of rows.rows) {
        let ev = txns.get(e.txn_id);
        if (!ev) {
          ev = { version: 1, txn_id: e.txn_id, kind: e.kind, created_at_ms: e.created_at.getTime(), entries: [] };
          txns.set(e.txn_id, ev);
        }
        ev.entries.push({ account: e.account, amount_minor: e.amount_minor });
      }
      // Sent together (one write, acks read together), in order on this one connection.
      const evs = [...txns.values()];
      const outcomes = await Promise.allSettled(evs.map((ev) => js.publish(LEDGER_JOURNAL_SUBJECT, encodeEvent(ev), { msgID: `journal-${ev.txn_id}`, timeout: 2_000 })));
      const published = evs.filter((_, i) => outcomes[i]!.status === "fulfilled").map((ev) => ev.txn_id);
      if (published.length > 0) {
        await sql`UPDATE journal_entries SET published_at = now() WHERE txn_id = ANY(${published}::text[]) AND published_at IS NULL`.execute(this.ctx.db);
      }
      const failed = outcomes.find((o) => o.status === "rejected");
      // The rest is published again on the next pass (a repeat is dropped by its message id).
      if (failed) throw failed.reason;
      if (txns.size < JOURNAL_PAGE) return;
    }
  }
}
