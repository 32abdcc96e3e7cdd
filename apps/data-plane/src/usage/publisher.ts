import { USAGE_BATCH_MAX_BYTES, USAGE_BATCH_MAX_EVENTS, USAGE_BATCH_SUBJECT, USAGE_REFUSED_SUBJECT, USAGE_SUBJECT, type RefusalEventV1, type UsageEventV1 } from "@gateway/events";
import type { Logger } from "@gateway/observability";
import type { Counter, Histogram } from "@gateway/observability";
import type { UsageSpool } from "./spool.js";
import type { AckedPublisher } from "./jetstream-publish.js";
import { DeadLetterFile, refusedForGood } from "./dead-letter.js";

export interface PublisherMetrics {
  published: Counter<"result">;
  publishBatch: Histogram;
}

/** Events published at once by a replay round once a first one was acknowledged. */
const REPLAY_BATCH = 100;
const REPLAY_INTERVAL_MS = 500;

/** Waits for `p` (or nothing), but not past `deadline` (epoch ms). */
async function within(p: Promise<void> | undefined, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  await (p ? Promise.race([p, expired]) : expired);
  clearTimeout(timer);
}

/**
 * Publishes in flight at once. Events finished while they are out wait for the next one (group
 * commit): events go out at the end of their event-loop turn, those of one turn together; under
 * load, batches grow with the arrival rate instead of every event paying its own write,
 * acknowledgement and wake-up.
 */
const MAX_IN_FLIGHT = 2;

/** An event waiting for the coalesced publish of its event-loop turn. */
interface Queued {
  requestId: string;
  line: string;
  done: (acked: boolean) => void;
}

/**
 * Publishes usage events to JetStream with an acknowledgement. Events are coalesced: those finished
 * in one event-loop turn, or while `MAX_IN_FLIGHT` publishes await their acknowledgements, go out
 * together: alone as `usage.v1.recorded` (message id = request id, so a replay is dropped as a
 * duplicate), several as one `usage.v1.batch` message with one acknowledgement. Each caller still
 * resumes only once its own event is acknowledged (or spooled). When
 * NATS does not acknowledge in time the events go to the durable local spool, which a background
 * loop replays one by one, oldest first, until it is empty (the ledger deduplicates by request id).
 */
export class UsagePublisher {
  private timer: NodeJS.Timeout | undefined;
  /** Events waiting to go out together with the next `flushQueue`. */
  private queue: Queued[] = [];
  /** A `flushQueue` is scheduled. */
  private scheduled = false;
  /** Publishes awaiting their acknowledgement. */
  private inFlight = 0;
  private replaying: Promise<void> | undefined;
  /**
   * Set by a failed publish, cleared by an acknowledged replay. While NATS is away and the spool
   * holds events, new ones go straight to it instead of each waiting for a publish timeout first.
   */
  private natsDown = false;

  constructor(
    private readonly js: () => AckedPublisher | undefined,
    private readonly spool: UsageSpool,
    private readonly log: Logger,
    private readonly timeoutMs: number,
    private readonly metrics: PublisherMetrics,
    /** Most events per message: 1 sends every event as its own `usage.v1.recorded` message. */
    private readonly batchEvents = USAGE_BATCH_MAX_EVENTS,
    /** Where an event NATS refuses for good goes (never in front of the spool's other events). */
    private readonly deadLetters = new DeadLetterFile(spool.dir),
  ) {}

  /** Takes over the spool files in the spool folder (earlier processes') and starts replaying. */
  async start(): Promise<void> {
    await this.spool.open();
    this.timer = setInterval(() => void this.replay(), REPLAY_INTERVAL_MS);
    this.timer.unref();
    void this.replay();
  }

  /**
   * Keeps replaying until JetStream acknowledged everything or `graceMs` ran out, then closes the
   * spool: what is left stays on disk for the next process.
   */
  async stop(graceMs: number): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    const deadline = Date.now() + graceMs;
    while (!this.spool.idle && Date.now() < deadline) {
      await within(this.replay(), deadline);
      // NATS still away (a round costs at most one publish timeout): try again shortly.
      if (!this.spool.idle) await within(undefined, Math.min(deadline, Date.now() + REPLAY_INTERVAL_MS));
    }
    await this.replaying?.catch(() => undefined);
    await this.spool.close();
  }

  /** True when the spool is full: paid routes must refuse work they could not bill. */
  get saturated(): boolean {
    return this.spool.full;
  }

  get spooled(): number {
    return this.spool.size;
  }

  /**
   * Resolves once the event is durable: acknowledged by JetStream ("acked", which includes an event
   * JetStream refused for good and the dead-letter file took), or on disk in the spool
   * (fdatasync'd; "spooled": the ledger has not got it yet).
   */
  publish(event: UsageEventV1): Promise<"acked" | "spooled"> {
    const line = JSON.stringify(event);
    if (this.natsDown && !this.spool.idle) return this.toSpool(event.request_id, line);
    return this.enqueue(event.request_id, line).then((acked) => {
      if (!acked) return this.toSpool(event.request_id, line);
      this.metrics.published.inc({ result: "acked" });
      return "acked" as const;
    });
  }

  /**
   * A refusal record (usage/refusals.ts), alone on `usage.v1.refused` with its request id as message
   * id: true once JetStream acknowledged it. Never spooled: false at once while NATS is known to be
   * away (the spool holds events), or when it does not acknowledge in time; never rejects.
   */
  async publishRefusal(event: RefusalEventV1): Promise<boolean> {
    const js = this.js();
    if (!js || (this.natsDown && !this.spool.idle)) return false;
    try {
      await js.publish(USAGE_REFUSED_SUBJECT, JSON.stringify(event), { msgID: event.request_id, timeout: this.timeoutMs });
      return true;
    } catch (err) {
      this.log.debug({ err: String(err), request_id: event.request_id }, "refusal record not published: dropped");
      return false;
    }
  }

  private async toSpool(requestId: string, line: string): Promise<"spooled"> {
    this.natsDown = true;
    await this.spool.append(line);
    this.metrics.published.inc({ result: "spooled" });
    this.log.warn({ request_id: requestId, spooled: this.spool.size }, "usage event spooled");
    return "spooled";
  }

  /** Resolves with whether JetStream acknowledged the event, published with its turn's others. */
  private enqueue(requestId: string, line: string): Promise<boolean> {
    return new Promise((done) => {
      this.queue.push({ requestId, line, done });
      // Even alone, an event waits for the end of this turn's I/O: the requests and streams that
      // finish in the same turn go out in the same write to NATS (a write wakes nats-server and
      // costs the replica tens of microseconds), and the acknowledgement could not be read before
      // the next turn anyway.
      this.schedule();
    });
  }

  /** Flushes after this turn's I/O, unless enough publishes are out: their acknowledgement will. */
  private schedule(): void {
    if (this.scheduled || this.inFlight >= MAX_IN_FLIGHT || this.queue.length === 0) return;
    this.scheduled = true;
    setImmediate(this.flushQueue);
  }

  /** Publishes what is queued: one message per bounded batch, all in one write to NATS. */
  private readonly flushQueue = (): void => {
    this.scheduled = false;
    const queued = this.queue;
    this.queue = [];
    let start = 0;
    while (start < queued.length) {
      let end = start;
      let bytes = 0;
      while (end < queued.length && end - start < this.batchEvents && (end === start || bytes + queued[end]!.line.length < USAGE_BATCH_MAX_BYTES)) {
        bytes += queued[end]!.line.length + 1;
        end++;
      }
      const batch = queued.slice(start, end);
      start = end;
      this.metrics.publishBatch.observe(batch.length);
      const sent = batch.length === 1 ? this.send(batch[0]!.requestId, batch[0]!.line, "warn") : this.sendBatch(batch.map((q) => q.line).join("\n"), batch[0]!.requestId, batch.length);
      this.inFlight++;
      void sent.then((acked) => {
        this.inFlight--;
        for (const q of batch) q.done(acked);
        this.schedule();
      });
    }
  };

  private async sendBatch(lines: string, firstRequestId: string, events: number): Promise<boolean> {
    const js = this.js();
    if (!js) return false;
    try {
      await js.publish(USAGE_BATCH_SUBJECT, lines, { timeout: this.timeoutMs });
      return true;
    } catch (err) {
      this.log.warn({ err: String(err), request_id: firstRequestId, events }, "usage batch publish failed");
      return false;
    }
  }

  /**
   * One event as its own message. True once it is handled: acknowledged by JetStream, or refused
   * for good (too large for NATS) and written to the dead-letter file instead. A batch holding
   * such an event fails as a whole, goes to the spool, and the replay, one event at a time, sets
   * it aside here.
   */
  private async send(requestId: string, line: string, level: "warn" | "debug"): Promise<boolean> {
    const js = this.js();
    if (!js) return false;
    try {
      await js.publish(USAGE_SUBJECT, line, { msgID: requestId, timeout: this.timeoutMs });
      return true;
    } catch (err) {
      if (refusedForGood(err)) return this.deadLetter(requestId, line, err);
      this.log[level]({ err: String(err), request_id: requestId }, "usage publish failed");
      return false;
    }
  }

  private async deadLetter(requestId: string, line: string, err: unknown): Promise<boolean> {
    try {
      await this.deadLetters.write(line, String(err));
    } catch (writeErr) {
      this.log.error({ err: String(writeErr), request_id: requestId }, "usage event refused by NATS could not be dead-lettered; kept for retry");
      return false;
    }
    this.metrics.published.inc({ result: "dead_lettered" });
    this.log.error({ err: String(err), request_id: requestId, file: this.deadLetters.path }, "usage event refused by NATS for good: dead-lettered, not billed until replayed by hand");
    return true;
  }

  /** Publishes spooled events oldest first, until the spool is empty or NATS fails. */
  replay(): Promise<void> {
    if (this.replaying) return this.replaying;
    if (this.spool.idle) return Promise.resolve();
    this.replaying = this.replayRounds()
      .catch((err: unknown) => this.log.error({ err: String(err) }, "usage spool replay failed"))
      .finally(() => (this.replaying = undefined));
    return this.replaying;
  }

  private async replayRounds(): Promise<void> {
    for (;;) {
      const batch = await this.spool.next(REPLAY_BATCH);
      if (!batch) return;
      const [first, ...rest] = batch.entries;
      // One event first: while NATS is away a round costs one failed publish, not a hundred.
      if (!first || !(await this.send(first.requestId, first.line, "debug"))) return;
      this.natsDown = false;
      const ok = await Promise.all(rest.map((e) => this.send(e.requestId, e.line, "warn")));
      // Only a prefix is marked done; events after a failure are sent again (JetStream drops the
      // duplicates by message id, the ledger by request id).
      const n = 1 + (ok.includes(false) ? ok.indexOf(false) : ok.length);
      await this.spool.ack(batch, n);
      this.metrics.published.inc({ result: "replayed" }, n);
      if (n < batch.entries.length) return;
    }
  }
}
