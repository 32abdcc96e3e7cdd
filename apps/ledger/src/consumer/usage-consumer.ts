import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager, type ConsumerMessages } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { USAGE_STREAM, USAGE_STREAM_SUBJECTS, UsageEventV1, decodeEvent } from "@gateway/events";
import type { LedgerContext } from "../context.js";
import { applyUsage } from "./apply-usage.js";

const DAY_NS = 24 * 60 * 60 * 1e9;

/** Creates the USAGE stream if missing (idempotent; the ledger owns it) and the durable consumer. */
export async function ensureStream(nc: NatsConnection, durable: string): Promise<void> {
  const jsm = await jetstreamManager(nc);
  const config = {
    name: USAGE_STREAM,
    subjects: USAGE_STREAM_SUBJECTS,
    storage: StorageType.File,
    retention: RetentionPolicy.Limits,
    discard: DiscardPolicy.Old,
    max_age: 7 * DAY_NS,
    duplicate_window: 120 * 1e9,
  };
  try {
    await jsm.streams.info(USAGE_STREAM);
  } catch {
    try {
      await jsm.streams.add(config);
    } catch (err) {
      // Another ledger replica created it first.
      await jsm.streams.info(USAGE_STREAM).catch(() => {
        throw err;
      });
    }
  }
  try {
    await jsm.consumers.info(USAGE_STREAM, durable);
  } catch {
    await jsm.consumers.add(USAGE_STREAM, {
      durable_name: durable,
      ack_policy: AckPolicy.Explicit,
      deliver_policy: DeliverPolicy.All,
      ack_wait: 30 * 1e9,
      max_ack_pending: 1_000,
    });
  }
}

/**
 * Pulls usage events from the durable consumer and applies each exactly once. The ack follows the
 * commit; a failed apply is redelivered later.
 */
export class UsageConsumer {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  running = false;

  constructor(private readonly ctx: LedgerContext, private readonly nc: NatsConnection) {}

  async start(): Promise<void> {
    await ensureStream(this.nc, this.ctx.config.consumerDurable);
    const consumer = await jetstream(this.nc).consumers.get(USAGE_STREAM, this.ctx.config.consumerDurable);
    this.messages = await consumer.consume({ max_messages: 256 });
    this.running = true;
    const { log, metrics, db } = this.ctx;
    this.loop = (async () => {
      for await (const msg of this.messages!) {
        const ev = decodeEvent(UsageEventV1, msg.data);
        if (!ev) {
          metrics.usageEvents.inc({ result: "invalid" });
          log.error({ subject: msg.subject, seq: msg.seq }, "invalid usage event dropped");
          msg.term();
          continue;
        }
        const end = metrics.applySeconds.startTimer();
        try {
          const applied = await applyUsage(db, ev);
          msg.ack();
          metrics.usageEvents.inc({ result: applied ? "applied" : "duplicate" });
        } catch (err) {
          metrics.usageEvents.inc({ result: "error" });
          log.error({ err, request_id: ev.request_id }, "usage event not applied; will be redelivered");
          msg.nak(1_000);
        } finally {
          end();
        }
      }
    })().finally(() => {
      this.running = false;
    });
  }

  async stop(): Promise<void> {
    if (!this.messages) return;
    await this.messages.close().catch(() => undefined);
    await this.loop;
  }
}
