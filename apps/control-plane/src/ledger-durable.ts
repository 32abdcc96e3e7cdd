import { setTimeout as sleep } from "node:timers/promises";
import { AckPolicy, DeliverPolicy, DiscardPolicy, RetentionPolicy, StorageType, jetstream, jetstreamManager, type ConsumerMessages, type JsMsg } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import { LEDGER_STREAM, LEDGER_STREAM_SUBJECTS } from "@gateway/events";
import type { Logger } from "@gateway/observability";

/** Pause before pulling again after the subscription ended unexpectedly, ms. */
const REOPEN_DELAY_MS = 1_000;

export interface LedgerDurableOptions {
  /** The durable's name on LEDGER (granted to the control-plane's NATS user with its filter). */
  durable: string;
  /** One subject: the Debian nats-server is older than 2.10, which brought filter_subjects. */
  filterSubject: string;
  /** What the log calls it ("trial unlock", "alerts"). */
  name: string;
  /** Handles one message; acknowledges, naks or terminates it itself. */
  handle(msg: JsMsg): Promise<void>;
  log: Logger;
}

/**
 * One of the control-plane's durable consumers on the ledger's LEDGER stream (an outbox: nothing
 * announced there is lost). A control-plane that was down catches up when it starts; every replica
 * pulls from the same durable, so each message goes to one of them at a time.
 */
export class LedgerDurable {
  private messages: ConsumerMessages | undefined;
  private loop: Promise<void> | undefined;
  private stopping = false;
  private readonly abort = new AbortController();

  constructor(
    private readonly nc: NatsConnection,
    private readonly o: LedgerDurableOptions,
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
    const { durable, filterSubject } = this.o;
    await jsm.consumers
      .info(LEDGER_STREAM, durable)
      .catch(() => jsm.consumers.add(LEDGER_STREAM, { durable_name: durable, filter_subject: filterSubject, ack_policy: AckPolicy.Explicit, deliver_policy: DeliverPolicy.All, ack_wait: 30 * 1e9 }));
    const consumer = await jetstream(this.nc).consumers.get(LEDGER_STREAM, durable);
    const messages = await consumer.consume({ max_messages: 100 });
    this.messages = messages;
    // stop() may have run while this was opening.
    if (this.stopping) await messages.close().catch(() => undefined);
    return messages;
  }

  /**
   * Drains subscriptions one after another. The client rides out NATS restarts inside one
   * subscription; one that ends or fails without stop() (the durable or the stream was deleted) is
   * reopened after a pause, so the consumer keeps working without a restart.
   */
  private async supervise(first: ConsumerMessages): Promise<void> {
    const { log, name } = this.o;
    let messages: ConsumerMessages | undefined = first;
    for (;;) {
      if (messages) {
        try {
          for await (const msg of messages) await this.o.handle(msg);
        } catch (err) {
          log.warn({ err }, `${name} subscription failed`);
        }
        messages = undefined;
        if (this.stopping) return;
        log.warn(`${name} subscription ended; reopening`);
      }
      try {
        await sleep(REOPEN_DELAY_MS, undefined, { signal: this.abort.signal });
      } catch {
        return; // stop() was called
      }
      if (this.stopping || this.nc.isClosed()) return;
      messages = await this.open().catch((err: unknown) => {
        log.warn({ err }, `${name} subscription could not be reopened; retrying`);
        return undefined;
      });
    }
  }
}

/** Naks a message for redelivery after `delayMs`; on a closed connection the ack wait brings it back instead. */
export function retryLater(msg: JsMsg, delayMs = 1_000): void {
  try {
    msg.nak(delayMs);
  } catch {
    // Closed connection: the ack wait brings the message back.
  }
}
