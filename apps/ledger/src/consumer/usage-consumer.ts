import { setTimeout as sleep } from "node:timers/promises";
import { jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { USAGE_STREAM, UsageEventV1, decodeEvent } from "@gateway/events";
import type { LedgerContext } from "../context.js";
import { applyUsage } from "./apply-usage.js";
import { ensureUsageStream } from "./ensure-stream.js";

/** Pause before pulling again after the subscription ended unexpectedly. */
const REOPEN_DELAY_MS = 1_000;
/** Redelivery delay for an event whose transaction failed (Postgres down, serialization). */
const RETRY_DELAY_MS = 1_000;

/**
 * Pulls usage events from the durable consumer and applies each exactly once. The ack follows the
 * commit; a failed apply is redelivered later. Several ledgers may pull from the same durable: the
 * usage record's primary key, not delivery order, makes that safe.
 */
export class UsageConsumer {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly abort = new AbortController();
  /** True while a subscription is open and being drained; drives readiness. */
  running = false;

  constructor(
    private readonly ctx: LedgerContext,
    private readonly nc: NatsConnection,
  ) {}

  /** Ensures stream and consumer and opens the subscription; throws if that fails the first time. */
  async start(): Promise<void> {
    const first = await this.open();
    this.loop = this.supervise(first);
  }

  /** Stops pulling, finishes the events already received (acking them), and returns. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.abort.abort();
    await this.messages?.close().catch(() => undefined);
    await this.loop;
  }

  private async open(): Promise<ConsumerMessages> {
    const { config, log } = this.ctx;
    await ensureUsageStream(await jetstreamManager(this.nc), config.consumerDurable, log);
    const consumer = await jetstream(this.nc).consumers.get(USAGE_STREAM, config.consumerDurable);
    const messages = await consumer.consume({ max_messages: 256 });
    this.messages = messages;
    // stop() may have run while this was opening: close at once, supervise() drains what came.
    if (this.stopping) await messages.close().catch(() => undefined);
    else this.running = true;
    void this.watch(messages);
    return messages;
  }

  /**
   * Drains subscriptions one after another: when one ends without stop() (the durable was deleted,
   * the stream recreated, a terminal pull error), the stream and durable are ensured again and
   * pulling resumes. A recreated durable starts from the beginning of the stream; every replayed
   * event is a duplicate, which applies nothing.
   */
  private async supervise(first: ConsumerMessages): Promise<void> {
    let messages: ConsumerMessages | undefined = first;
    for (;;) {
      if (messages) {
        try {
          for await (const msg of messages) await this.handle(msg);
        } catch (err) {
          this.ctx.log.error({ err }, "usage subscription failed");
        }
        this.running = false;
        messages = undefined;
        if (this.stopping) break;
        this.ctx.log.warn({ durable: this.ctx.config.consumerDurable }, "usage subscription ended; reopening");
      }
      try {
        await sleep(REOPEN_DELAY_MS, undefined, { signal: this.abort.signal });
      } catch {
        break; // stop() was called
      }
      if (this.stopping || this.nc.isClosed()) break;
      messages = await this.open().catch((err: unknown) => {
        this.ctx.log.error({ err }, "usage subscription could not be reopened; retrying");
        return undefined;
      });
    }
    this.running = false;
  }

  /**
   * The client keeps pulling from a durable that vanished but never recreates it; ending the
   * subscription hands that over to supervise().
   */
  private async watch(messages: ConsumerMessages): Promise<void> {
    try {
      for await (const s of messages.status()) {
        if (s.type === "consumer_deleted" || s.type === "consumer_not_found" || s.type === "stream_not_found") {
          this.ctx.log.warn({ status: s.type, durable: this.ctx.config.consumerDurable }, "usage consumer lost");
          if (!this.stopping) await messages.close().catch(() => undefined);
          return;
        }
      }
    } catch {
      // The status iterator ends with the subscription; nothing to do.
    }
  }

  private async handle(msg: JsMsg): Promise<void> {
    const { log, metrics, db } = this.ctx;
    const ev = decodeEvent(UsageEventV1, msg.data);
    if (!ev) {
      // Redelivering cannot fix a malformed event; the payload is not logged (it may hold anything).
      metrics.usageEvents.inc({ result: "invalid" });
      log.error({ subject: msg.subject, stream_seq: msg.seq, bytes: msg.data.length }, "invalid usage event dropped");
      msg.term();
      return;
    }
    const end = metrics.applySeconds.startTimer();
    try {
      const applied = await applyUsage(db, ev);
      msg.ack();
      metrics.usageEvents.inc({ result: applied ? "applied" : "duplicate" });
    } catch (err) {
      metrics.usageEvents.inc({ result: "error" });
      log.error({ err, request_id: ev.request_id }, "usage event not applied; will be redelivered");
      msg.nak(RETRY_DELAY_MS);
    } finally {
      end();
    }
  }
}
