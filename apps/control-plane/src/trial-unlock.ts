import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager, type ConsumerMessages } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { LEDGER_BALANCE_SUBJECT, LEDGER_STREAM, LEDGER_STREAM_SUBJECTS, LedgerBalanceV1, decodeEvent } from "@gateway/events";
import type { ControlContext } from "./context.js";

const DURABLE = "control-plane-trial";

/**
 * Ends an organization's trial when its lifetime top-ups reach the trial policy's threshold. The
 * ledger announces every top-up on its JetStream stream (an outbox: never lost); this durable
 * consumer flips the org and announces the change, and every data-plane replica evicts the org's
 * keys. A control-plane that was down when the top-up happened catches up when it starts.
 */
export class TrialUnlocker {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;

  constructor(private readonly ctx: ControlContext, private readonly nc: NatsConnection) {}

  async start(): Promise<void> {
    const jsm = await jetstreamManager(this.nc);
    // The ledger owns the stream; create it with the same settings if the ledger has not yet.
    await jsm.streams.info(LEDGER_STREAM).catch(() =>
      jsm.streams
        .add({ name: LEDGER_STREAM, subjects: LEDGER_STREAM_SUBJECTS, storage: StorageType.File, retention: RetentionPolicy.Limits, discard: DiscardPolicy.Old, max_age: 7 * 24 * 3600 * 1e9, duplicate_window: 120 * 1e9 })
        .catch(() => jsm.streams.info(LEDGER_STREAM)),
    );
    await jsm.consumers.info(LEDGER_STREAM, DURABLE).catch(() =>
      jsm.consumers.add(LEDGER_STREAM, { durable_name: DURABLE, filter_subject: LEDGER_BALANCE_SUBJECT, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: 30 * 1e9 }),
    );
    const consumer = await jetstream(this.nc).consumers.get(LEDGER_STREAM, DURABLE);
    this.messages = await consumer.consume({ max_messages: 100 });
    this.loop = (async () => {
      for await (const msg of this.messages!) {
        const ev = decodeEvent(LedgerBalanceV1, msg.data);
        if (!ev) {
          msg.term();
          continue;
        }
        try {
          await unlockIfDue(this.ctx, ev.org_id, ev.topped_up_minor);
          msg.ack();
        } catch (err) {
          this.ctx.log.warn({ err, org_id: ev.org_id }, "trial unlock failed; will retry");
          msg.nak(1_000);
        }
      }
    })();
  }

  async stop(): Promise<void> {
    await this.messages?.close().catch(() => undefined);
    await this.loop;
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
