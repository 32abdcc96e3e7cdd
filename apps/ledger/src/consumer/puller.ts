import { createInbox, type Msg, type NatsConnection, type Subscription } from "@nats-io/transport-node";
import { USAGE_SIGNATURE_HEADER } from "@gateway/events";

/** A message the durable delivered, with what the ledger does to it: the subset of JsMsg it uses. */
export interface Delivered {
  subject: string;
  /** Stream sequence. */
  seq: number;
  data: Uint8Array;
  /** The data-plane's signature header (USAGE_SIGNATURE_HEADER), when the message carries one. */
  signature?: string;
  ack(): void;
  /** Redeliver after `delayMs`. */
  nak(delayMs?: number): void;
}

/** How a round ended. `gone`: the stream or the durable is not there (recreate it, then pull). */
export type RoundEnd = "full" | "drained" | "gone" | "busy" | "timeout";

const ACK = new TextEncoder().encode("+ACK");

/** `$JS.ACK.<stream>.<durable>.<delivered>.<stream seq>.<consumer seq>.<ms>.<pending>` (older servers), or with domain and account hash in front. */
function streamSeq(reply: string): number {
  const t = reply.split(".");
  return Number(t.length === 9 ? t[5] : t[t.length - 5]);
}

/** Publishes unless the connection is gone: an unsent ack or nak means a redelivery after the ack wait, which applies nothing twice. */
function tell(nc: NatsConnection, reply: string, what: Uint8Array | string): void {
  try {
    nc.publish(reply, what);
  } catch {
    // closed or draining
  }
}

function delivered(nc: NatsConnection, m: Msg): Delivered {
  const reply = m.reply!;
  return {
    subject: m.subject,
    seq: streamSeq(reply),
    data: m.data,
    signature: m.headers?.get(USAGE_SIGNATURE_HEADER) || undefined,
    ack: () => tell(nc, reply, ACK),
    nak: (delayMs) => tell(nc, reply, delayMs ? `-NAK ${JSON.stringify({ delay: delayMs * 1_000_000 })}` : "-NAK"),
  };
}

interface Round {
  id: number;
  want: number;
  got: number;
  done: (end: RoundEnd) => void;
  timer: NodeJS.Timeout;
}

/**
 * Pulls from a durable in rounds, each asking only for what the stream holds now (`no_wait`), so
 * no pull request waits on the server between rounds. A waiting pull makes the server deliver each
 * message the moment it is stored, on the path of the publisher's acknowledgement: on a busy node
 * that was a tenth of a millisecond added to every answer the data-plane holds for its usage event.
 * Messages are handed to `onMessage` as they arrive, also late ones of a round that timed out (the
 * server delivered them: they are processed, never left to their ack wait).
 */
export class Puller {
  private readonly inbox: string;
  private readonly sub: Subscription;
  private next = 0;
  private round: Round | undefined;

  /** `inboxPrefix`: the connection's reply prefix, the one subject space its NATS permissions let it read. */
  constructor(
    private readonly nc: NatsConnection,
    private readonly stream: string,
    private readonly durable: string,
    private readonly onMessage: (m: Delivered) => void,
    inboxPrefix?: string,
  ) {
    this.inbox = createInbox(inboxPrefix);
    this.sub = nc.subscribe(`${this.inbox}.*`, { callback: (err, m) => (err ? undefined : this.receive(m)) });
  }

  /**
   * One round of at most `batch` messages; resolves once they came or the server said it has no
   * more, with how it ended and how many messages it brought.
   */
  pull(batch: number, timeoutMs: number): Promise<{ end: RoundEnd; got: number }> {
    if (this.round) throw new Error("a pull round is already running");
    const id = ++this.next;
    return new Promise((resolve) => {
      const done = (end: RoundEnd) => {
        const round = this.round;
        if (round?.id !== id) return;
        clearTimeout(round.timer);
        this.round = undefined;
        resolve({ end, got: round.got });
      };
      this.round = { id, want: batch, got: 0, done, timer: setTimeout(() => done("timeout"), timeoutMs) };
      try {
        this.nc.publish(`$JS.API.CONSUMER.MSG.NEXT.${this.stream}.${this.durable}`, JSON.stringify({ batch, no_wait: true }), { reply: `${this.inbox}.${id}` });
      } catch {
        done("timeout");
      }
    });
  }

  /** Ends the round in flight now (as timed out); messages it still brings are handed over until close(). */
  interrupt(): void {
    this.round?.done("timeout");
  }

  close(): void {
    this.interrupt();
    if (!this.nc.isClosed()) this.sub.unsubscribe();
  }

  private receive(m: Msg): void {
    const code = m.headers?.code ?? 0;
    const round = this.round;
    if (code === 0 && m.reply) {
      // A delivery keeps its stream subject: it is the current round's (a late one of an ended
      // round is processed all the same).
      this.onMessage(delivered(this.nc, m));
      if (round && ++round.got >= round.want) round.done("full");
      return;
    }
    // A status comes on the round's own reply subject.
    if (!round || m.subject !== `${this.inbox}.${round.id}`) return;
    // 404 No Messages / 408 Request Timeout: nothing more for now. 409 Consumer Deleted: gone;
    // 409 Exceeded MaxAckPending: wait for acks; other 409s (a leadership change): try again.
    // 503 No Responders: no leader answers for the durable: gone, or being elected.
    const description = (m.headers?.description ?? "").toLowerCase();
    if (code === 503 || (code === 409 && description.includes("deleted"))) round.done("gone");
    else if (code === 409 && description.includes("maxackpending")) round.done("busy");
    else round.done("drained");
  }
}
