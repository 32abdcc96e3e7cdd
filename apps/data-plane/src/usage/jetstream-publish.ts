import { createInbox, headers, type Msg, type NatsConnection } from "@nats-io/transport-node";
import { USAGE_SIGNATURE_HEADER } from "@gateway/events";

/** What the usage publisher needs of JetStream: a publish that resolves once the stream stored it. */
export interface AckedPublisher {
  publish(subject: string, data: string, opts: { msgID?: string; timeout: number }): Promise<unknown>;
}

const ERROR_KEY = Buffer.from('"error"');

/** How often expired publishes are looked for while some are pending. */
const SWEEP_MS = 50;

interface Pending {
  resolve: () => void;
  reject: (err: Error) => void;
  deadline: number;
}

/**
 * JetStream publish with acknowledgement, lean enough for one publish per request: one reply
 * subscription per connection (`<inbox>.<n>`), the pending publishes in one map, and one sweep timer
 * while any is pending, instead of the client's request machinery (an Error with a captured stack,
 * a timer and a promise chain per publish). Resolves on the stream's acknowledgement; rejects on
 * its error reply, on "no responders" (no stream takes the subject), on the timeout, or when the
 * connection closes.
 */
export class JetStreamPublish implements AckedPublisher {
  private readonly inbox: string;
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  /**
   * `inboxPrefix`: the connection's reply prefix, the one subject space its NATS permissions let it
   * read. `sign`: the signature header's value for a message's data (usage messages; docs/security.md).
   */
  constructor(
    private readonly nc: NatsConnection,
    inboxPrefix?: string,
    private readonly sign?: (data: string) => string,
  ) {
    this.inbox = createInbox(inboxPrefix);
    nc.subscribe(`${this.inbox}.*`, { callback: (err, msg) => (err ? undefined : this.reply(msg)) });
    void nc.closed().then(() => {
      this.closed = true;
      this.failAll(new Error("NATS connection closed"));
    });
  }

  publish(subject: string, data: string, opts: { msgID?: string; timeout: number }): Promise<void> {
    if (this.closed) return Promise.reject(new Error("NATS connection closed"));
    const id = ++this.next;
    return new Promise<void>((resolve, reject) => {
      let h: ReturnType<typeof headers> | undefined;
      if (opts.msgID || this.sign) h = headers();
      if (opts.msgID) h!.set("Nats-Msg-Id", opts.msgID);
      if (this.sign) h!.set(USAGE_SIGNATURE_HEADER, this.sign(data));
      try {
        this.nc.publish(subject, data, { reply: `${this.inbox}.${id}`, ...(h ? { headers: h } : {}) });
      } catch (err) {
        reject(err instanceof Error ? err : new Error(String(err)));
        return;
      }
      this.pending.set(id, { resolve, reject, deadline: Date.now() + opts.timeout });
      if (!this.sweeper) {
        this.sweeper = setInterval(this.sweep, SWEEP_MS);
        this.sweeper.unref();
      }
    });
  }

  private reply(msg: Msg): void {
    const id = Number(msg.subject.slice(this.inbox.length + 1));
    const p = this.pending.get(id);
    if (!p) return; // timed out already
    this.pending.delete(id);
    if (msg.headers?.hasError) {
      p.reject(new Error(msg.headers.code === 503 ? "no stream takes the subject (no responders)" : `JetStream error ${msg.headers.code} ${msg.headers.description}`));
      return;
    }
    // `{"stream":"USAGE","seq":N}` (perhaps with "duplicate"): an acknowledgement is read whole
    // only when it is not one of those, which is rare.
    const data = Buffer.from(msg.data.buffer, msg.data.byteOffset, msg.data.byteLength);
    if (data[0] === 0x7b && data[data.length - 1] === 0x7d && data.indexOf(ERROR_KEY) === -1) {
      p.resolve();
      return;
    }
    let ack: { error?: { code?: number; description?: string } };
    try {
      ack = JSON.parse(msg.string()) as typeof ack;
    } catch {
      p.reject(new Error("invalid JetStream acknowledgement"));
      return;
    }
    if (ack.error) p.reject(new Error(`JetStream refused the message: ${ack.error.code ?? ""} ${ack.error.description ?? ""}`.trim()));
    else p.resolve();
  }

  /** Fails the publishes past their deadline (insertion order: the oldest first). */
  private readonly sweep = (): void => {
    const now = Date.now();
    for (const [id, p] of this.pending) {
      if (p.deadline > now) continue;
      this.pending.delete(id);
      p.reject(new Error("JetStream did not acknowledge in time"));
    }
    if (this.pending.size === 0 && this.sweeper) {
      clearInterval(this.sweeper);
      this.sweeper = undefined;
    }
  };

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }
}
