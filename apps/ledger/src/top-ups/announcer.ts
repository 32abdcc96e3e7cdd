import { jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { sql } from "@gateway/db";
import { LEDGER_BALANCE_SUBJECT, encodeEvent, type LedgerBalanceV1 } from "@gateway/events";
import type { LedgerContext } from "../context.js";

/**
 * The top-up outbox: every committed top-up is published to JetStream (`ledger.v1.balance`, message
 * id = top-up id, so a repeat is dropped) and only then marked announced. A crash or a NATS outage
 * delays the announcement; it never loses it.
 */
export class TopUpAnnouncer {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private again = false;

  constructor(private readonly ctx: LedgerContext, private readonly nc: NatsConnection) {}

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
}
