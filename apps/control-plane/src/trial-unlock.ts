import type { JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { LEDGER_BALANCE_SUBJECT, LedgerBalanceV1, TRIAL_UNLOCK_DURABLE, decodeEvent } from "@gateway/events";
import type { ControlContext } from "./context.js";
import { LedgerDurable, retryLater } from "./ledger-durable.js";

/**
 * Ends an organization's trial when its lifetime top-ups reach the trial policy's threshold. The
 * ledger announces every top-up on its JetStream stream (an outbox: never lost); this durable
 * consumer flips the org and announces the change, and every data-plane replica evicts the org's
 * keys. A control-plane that was down when the top-up happened catches up when it starts.
 */
export class TrialUnlocker {
  private readonly durable: LedgerDurable;

  constructor(
    private readonly ctx: ControlContext,
    nc: NatsConnection,
  ) {
    this.durable = new LedgerDurable(nc, { durable: TRIAL_UNLOCK_DURABLE, filterSubject: LEDGER_BALANCE_SUBJECT, name: "trial unlock", log: ctx.log, handle: (msg) => this.handle(msg) });
  }

  /** Ensures the stream and the durable and starts consuming; throws if that fails (the caller retries). */
  start(): Promise<void> {
    return this.durable.start();
  }

  stop(): Promise<void> {
    return this.durable.stop();
  }

  private async handle(msg: JsMsg): Promise<void> {
    const ev = decodeEvent(LedgerBalanceV1, msg.data);
    try {
      if (!ev) {
        msg.term();
        return;
      }
      await unlockIfDue(this.ctx, ev.org_id, ev.topped_up_minor);
      msg.ack();
    } catch (err) {
      // Postgres is away, or the connection closed under the ack: JetStream redelivers either way.
      this.ctx.log.warn({ err, org_id: ev?.org_id }, "trial unlock failed; will retry");
      retryLater(msg);
    }
  }
}

export async function unlockIfDue(ctx: ControlContext, orgId: string, toppedUpMinor: number): Promise<boolean> {
  const policy = await ctx.db.selectFrom("trial_policy").select("unlock_topup_minor").where("id", "=", 1).executeTakeFirstOrThrow();
  if (toppedUpMinor < policy.unlock_topup_minor) return false;
  const r = await ctx.db.updateTable("organizations").set({ in_trial: false }).where("id", "=", orgId).where("in_trial", "=", true).executeTakeFirst();
  if (Number(r.numUpdatedRows) === 0) return false;
  ctx.log.info({ org_id: orgId }, "trial ended by top-up");
  ctx.publishChange({ kind: "org", id: orgId });
  return true;
}
