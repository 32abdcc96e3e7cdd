import type { JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { sql, type Kysely } from "@gateway/db";
import { ALERTS_DURABLE, LEDGER_ALERT_SUBJECT, LedgerAlertV1, decodeEvent } from "@gateway/events";
import type { ControlContext } from "../context.js";
import type { ControlDb } from "../db/schema.js";
import { LedgerDurable, retryLater } from "../ledger-durable.js";
import { webhookBody } from "./event.js";
import type { AlertMetrics } from "./metrics.js";

/**
 * Takes the ledger's alert announcements (`ledger.v1.alert`, durable `control-plane-alerts`) into
 * the `alerts` table, each once: a redelivered or replayed announcement finds its id there and
 * makes no second delivery. A message is acknowledged only after its row committed, so an alert is
 * never lost between NATS and Postgres; the sender (sender.ts) delivers from the table.
 */
export class AlertConsumer {
  private readonly durable: LedgerDurable;

  constructor(
    private readonly ctx: ControlContext,
    nc: NatsConnection,
    private readonly metrics: AlertMetrics,
    /** Called when a new alert waits for delivery: the sender tries it at once. */
    private readonly onPending: () => void,
  ) {
    this.durable = new LedgerDurable(nc, { durable: ALERTS_DURABLE, filterSubject: LEDGER_ALERT_SUBJECT, name: "alerts", log: ctx.log, handle: (msg) => this.handle(msg) });
  }

  start(): Promise<void> {
    return this.durable.start();
  }

  stop(): Promise<void> {
    return this.durable.stop();
  }

  private async handle(msg: JsMsg): Promise<void> {
    const ev = decodeEvent(LedgerAlertV1, msg.data);
    if (!ev) {
      this.metrics.received.inc({ outcome: "invalid" });
      this.ctx.log.warn({ seq: msg.seq }, "alert announcement not understood; dropped");
      msg.term();
      return;
    }
    try {
      const stored = await storeAlert(this.ctx.db, ev);
      msg.ack();
      this.metrics.received.inc({ outcome: stored ? "stored" : "duplicate" });
      if (stored === "pending") this.onPending();
    } catch (err) {
      // Postgres is away: JetStream brings the message back.
      this.ctx.log.warn({ err, alert_id: ev.alert_id }, "alert not stored; will retry");
      retryLater(msg);
    }
  }
}

/**
 * Writes an alert once (its id is the key): pending delivery when its organization has a webhook,
 * otherwise kept as `no_webhook` (listed, never sent). Undefined when the alert was already there.
 */
export async function storeAlert(db: Kysely<ControlDb>, ev: LedgerAlertV1): Promise<"pending" | "no_webhook" | undefined> {
  const r = await sql<{ state: "pending" | "no_webhook" }>`
    INSERT INTO alerts (id, org_id, kind, event, body, created_at, state, next_attempt_at)
    SELECT ${ev.alert_id}, ${ev.org_id}, ${ev.kind}, ${JSON.stringify(ev)}::jsonb, ${webhookBody(ev)}, ${new Date(ev.created_at_ms)},
      CASE WHEN s.webhook_url IS NULL THEN 'no_webhook' ELSE 'pending' END, CASE WHEN s.webhook_url IS NULL THEN NULL ELSE now() END
    FROM (SELECT ${ev.org_id}::text AS org_id) o LEFT JOIN org_alert_settings s ON s.org_id = o.org_id
    ON CONFLICT (id) DO NOTHING
    RETURNING state`.execute(db);
  return r.rows[0]?.state;
}
