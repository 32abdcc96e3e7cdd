import type { JetStreamManager } from "@nats-io/jetstream";
import { USAGE_STREAM } from "@gateway/events";

interface Sample {
  /** Ledger clock, ms, taken before the stream's last sequence was read. */
  at: number;
  lastSeq: number;
}

/** Bounds the samples kept while the consumer is far behind (one per refresh). */
const MAX_SAMPLES = 10_000;

/**
 * How far the usage consumer has provably applied the stream, as a time: every usage event that
 * JetStream acknowledged before `appliedThrough` has been applied (or dead-lettered) by some ledger.
 *
 * Each refresh notes the clock, then reads the stream's last sequence: everything acknowledged
 * before that instant has a sequence at or below it. Once the durable's ack floor (every message at
 * or below it acked, and acks follow commits) reaches that sequence, the instant is covered. The
 * durable is shared, so every ledger replica computes the same watermark from NATS alone.
 */
export class AppliedWatermark {
  private samples: Sample[] = [];
  private through = 0;
  private pendingCount = 0;
  private refreshing: Promise<void> | undefined;

  constructor(
    private readonly jsm: () => JetStreamManager | undefined,
    private readonly durable: string,
    private readonly now: () => number = Date.now,
  ) {}

  /** Unix ms; 0 until the first successful refresh of this process. */
  get appliedThrough(): number {
    return this.through;
  }

  /** Events in the stream not yet acknowledged by the durable, at the last refresh. */
  get pending(): number {
    return this.pendingCount;
  }

  /** One refresh at a time; concurrent callers share it. Throws when NATS cannot answer. */
  refresh(): Promise<void> {
    this.refreshing ??= this.doRefresh().finally(() => (this.refreshing = undefined));
    return this.refreshing;
  }

  private async doRefresh(): Promise<void> {
    const jsm = this.jsm();
    if (!jsm) throw new Error("NATS is not connected");
    const at = this.now();
    const stream = await jsm.streams.info(USAGE_STREAM);
    // A recreated stream starts again from sequence 1: older samples no longer compare.
    if (this.samples.length > 0 && this.samples[this.samples.length - 1]!.lastSeq > stream.state.last_seq) this.samples = [];
    this.samples.push({ at, lastSeq: stream.state.last_seq });
    if (this.samples.length > MAX_SAMPLES) this.samples.splice(0, this.samples.length - MAX_SAMPLES);
    const consumer = await jsm.consumers.info(USAGE_STREAM, this.durable);
    const floor = consumer.ack_floor.stream_seq;
    this.pendingCount = consumer.num_pending + consumer.num_ack_pending;
    let covered = 0;
    while (covered < this.samples.length && this.samples[covered]!.lastSeq <= floor) covered++;
    if (covered > 0) {
      this.through = Math.max(this.through, this.samples[covered - 1]!.at);
      this.samples.splice(0, covered);
    }
  }
}
