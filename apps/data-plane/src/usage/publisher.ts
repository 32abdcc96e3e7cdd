import type { JetStreamClient } from "@nats-io/jetstream";
import { USAGE_SUBJECT, type UsageEventV1 } from "@gateway/events";
import type { Logger } from "@gateway/observability";
import type { Counter } from "@gateway/observability";
import type { UsageSpool } from "./spool.js";

export interface PublisherMetrics {
  published: Counter<"result">;
}

/**
 * Publishes usage events to JetStream with an acknowledgement (message id = request id, so a
 * replay is dropped as a duplicate). When NATS does not acknowledge in time the event goes to the
 * local spool, which a background loop replays in order.
 */
export class UsagePublisher {
  private timer: NodeJS.Timeout | undefined;
  private replaying = false;

  constructor(
    private readonly js: () => JetStreamClient | undefined,
    private readonly spool: UsageSpool,
    private readonly log: Logger,
    private readonly timeoutMs: number,
    private readonly metrics: PublisherMetrics,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.replay(), 500);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
  }

  /** True when the spool is full: paid routes must refuse work they could not bill. */
  get saturated(): boolean {
    return this.spool.full;
  }

  get spooled(): number {
    return this.spool.size;
  }

  /** Resolves once the event is acknowledged by JetStream or written to the spool. */
  async publish(event: UsageEventV1): Promise<void> {
    const line = JSON.stringify(event);
    // Keep order with earlier spooled events: while the spool has lines, new ones queue behind them.
    if (this.spool.size === 0 && (await this.send(event.request_id, line))) {
      this.metrics.published.inc({ result: "acked" });
      return;
    }
    this.spool.append(line);
    this.metrics.published.inc({ result: "spooled" });
    this.log.warn({ request_id: event.request_id, spooled: this.spool.size }, "usage event spooled");
  }

  private async send(requestId: string, line: string): Promise<boolean> {
    const js = this.js();
    if (!js) return false;
    try {
      await js.publish(USAGE_SUBJECT, line, { msgID: requestId, timeout: this.timeoutMs });
      return true;
    } catch (err) {
      this.log.warn({ err: String(err), request_id: requestId }, "usage publish failed");
      return false;
    }
  }

  /** Publishes spooled events oldest first; stops at the first failure. */
  async replay(): Promise<void> {
    if (this.replaying || this.spool.size === 0) return;
    this.replaying = true;
    try {
      for (;;) {
        const batch = this.spool.peek(100);
        if (batch.length === 0) return;
        let sent = 0;
        for (const line of batch) {
          const id = (JSON.parse(line) as { request_id: string }).request_id;
          if (!(await this.send(id, line))) break;
          sent++;
        }
        if (sent > 0) {
          this.spool.drop(sent);
          this.metrics.published.inc({ result: "replayed" }, sent);
        }
        if (sent < batch.length) return;
      }
    } finally {
      this.replaying = false;
    }
  }
}
