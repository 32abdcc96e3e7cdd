import { setTimeout as sleep } from "node:timers/promises";
import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { LEDGER_BALANCE_SUBJECT, LEDGER_STREAM, LEDGER_STREAM_SUBJECTS, LedgerBalanceV1, TRIAL_UNLOCK_DURABLE as DURABLE, decodeEvent } from "@gateway/events";
import type { ControlContext } from "./context.js";

/** Pause before pulling again after the subscription ended unexpectedly, ms. */
const REOPEN_DELAY_MS = 1_000;

/**
 * Ends an organization's trial when its lifetime top-ups reach the trial policy's threshold. The
 * ledger announces every top-up on its JetStream stream (an outbox: never lost); this durable
 * consumer flips the org and announces the change, and every data-plane replica evicts the org's
 * keys. A control-plane that was down when the top-up happened catches up when it starts.
 */
export class TrialUnlocker {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly ctx: ControlContext,
    private readonly nc: NatsConnection,
  ) {}

  /** Ensures the stream and the durable and starts consuming; throws if that fails (the caller retries). */
  async start(): Promise<void> {
    this.loop = this.supervise(await this.open());
  }

  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    await this.messages?.close().catch(() => undefined);
    await this.loop;
  }

  private async open(): Promise<ConsumerMessages> {
    const jsm = await jetstreamManager(this.nc);
    // The ledger owns the stream; create it with the same settings if the ledger has not yet.
    await jsm.streams.info(LEDGER_STREAM).catch(() =>
      jsm.streams
        .add({
          name: LEDGER_STREAM,
          subjects: LEDGER_STREAM_SUBJECTS,
          storage: StorageType.File,
          retention: RetentionPolicy.Limits,
          discard: DiscardPolicy.Old,
          max_age: 7 * 24 * 3600 * 1e9,
          duplicate_window: 120 * 1e9,
        })
        .catch(() => jsm.streams.info(LEDGER_STREAM)),
    );
    await jsm.consumers
      .info(LEDGER_STREAM, DURABLE)
      .catch(() =>
        jsm.consumers.add(LEDGER_STREAM, { durable_name: DURABLE, filter_subject: LEDGER_BALANCE_SUBJECT, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: 30 * 1e9 }),
      );
    const consumer = await jetstream(this.nc).consumers.get(LEDGER_STREAM, DURABLE);
    const messages = await consumer.consume({ max_messages: 100 });
    this.messages = messages;
    // stop() may have run while this was opening.
    if (this.stopping) await messages.close().catch(() => undefined);
    return messages;
  }

  /**
   * Drains subscriptions one after another. The client rides out NATS restarts inside one
   * subscription; one that ends or fails without stop() (the durable or the stream was deleted) is
   * reopened after a pause, so top-ups keep ending trials without a restart.
   */
  private async supervise(first: ConsumerMessages): Promise<void> {
    let messages: ConsumerMessages | undefined = first;
    for (;;) {
      if (messages) {
        try {
          for await (const msg of messages) await this.handle(msg);
        } catch (err) {
          this.ctx.log.warn({ err }, "trial unlock subscription failed");
        }
        messages = undefined;
        if (this.stopping) return;
        this.ctx.log.warn("trial unlock subscription ended; reopening");
      }
      try {
        await sleep(REOPEN_DELAY_MS, undefined, { signal: this.abort.signal });
      } catch {
        return; // stop() was called
      }
      if (this.stopping || this.nc.isClosed()) return;
      messages = await this.open().catch((err: unknown) => {
        this.ctx.log.warn({ err }, "trial unlock subscription could not be reopened; retrying");
        return undefined;
      });
    }
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
      try {
        msg.nak(1_000);
      } catch {
        // Closed connection: the ack wait brings the message back.
      }
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
