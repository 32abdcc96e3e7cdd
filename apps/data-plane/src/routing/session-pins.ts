import { jetstream } from "@nats-io/jetstream";
import { Kvm, type KV } from "@nats-io/kv";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "@gateway/observability";
import { KvBucket, deadline } from "../kv-bucket.js";

/** The KeyValue bucket of session pins (a JetStream stream `KV_PINS`): docs/providers.md, "Cache-warm routing". */
export const PINS_BUCKET = "PINS";

/** The longest a pin lives: the longest prompt cache a provider keeps on request (Anthropic's and OpenAI's extended: an hour). */
export const PIN_MAX_TTL_MS = 3_600_000;

/** How a served turn relates to its session's pin (the usage record's `route_pin`). */
export type PinOutcome = "hit" | "new" | "moved";

export interface SessionPinsOptions {
  /** Pins kept in this replica's memory at most (the oldest is dropped for a new one). */
  maxEntries: number;
  /** The bucket's total bound, bytes. */
  bucketMaxBytes: number;
  /** Copies of the bucket on the NATS cluster. */
  replicas: number;
  /** Deadline of every bucket call, ms. */
  timeoutMs: number;
  /** Writes to the bucket in flight at most: beyond it a pin stays local until the next turn writes it. */
  maxWritesInFlight: number;
  log: Logger;
  now?: () => number;
}

interface Pin {
  /** The deployment: `<provider code>/<upstream model>`. */
  deployment: string;
  /** Unix ms the pin lapses (the provider's cache lifetime after the turn that set it). */
  expiresAt: number;
}

/** A pin as the bucket stores it. */
interface StoredPin {
  d: string;
  exp: number;
}

/**
 * Which deployment each agent session is pinned to, so its turns land where the provider's prompt
 * cache is warm. Read from this replica's memory only (no network call on a request); every
 * replica's memory follows the PINS bucket through a watch, and a served turn writes its pin there
 * (off the request's path, bounded, with a deadline). A pin lives as long as the provider's cache
 * (5 minutes, an hour when the request asked for the longer cache) after the last turn that used it;
 * the bucket keeps nothing older than an hour. NATS away: pins still work on each replica alone.
 */
export class SessionPins {
  private readonly pins = new Map<string, Pin>();
  private readonly kv: KvBucket;
  private writes = 0;
  private readonly now: () => number;

  constructor(private readonly opts: SessionPinsOptions) {
    this.now = opts.now ?? Date.now;
    this.kv = new KvBucket("pins bucket", opts.timeoutMs, (nc) => this.create(nc));
  }

  /** The live pin of a session: its deployment, or undefined. */
  get(session: string): string | undefined {
    const pin = this.pins.get(session);
    if (!pin) return undefined;
    if (pin.expiresAt <= this.now()) {
      this.pins.delete(session);
      return undefined;
    }
    return pin.deployment;
  }

  /**
   * A turn of `session` was served by `deployment`: pinned there for `ttlMs` from now. Says how that
   * relates to the pin the turn was planned with (`planned`: the deployment pinned at admission).
   * The bucket is written when the pin is new, moved, or past half its life (a busy session writes
   * about twice per cache lifetime, not once per turn).
   */
  served(session: string, planned: string | undefined, deployment: string, ttlMs: number): PinOutcome {
    const now = this.now();
    const current = this.pins.get(session);
    const expiresAt = now + ttlMs;
    const stale = !current || current.deployment !== deployment || current.expiresAt - now < ttlMs / 2;
    this.remember(session, { deployment, expiresAt });
    if (stale) this.write(session, { d: deployment, exp: expiresAt });
    return planned === undefined ? "new" : planned === deployment ? "hit" : "moved";
  }

  /** Pins in memory (bounded by maxEntries). */
  get size(): number {
    return this.pins.size;
  }

  private remember(session: string, pin: Pin): void {
    // Re-inserted at the end: the Map's order is the order of last use, its first entry the one to drop.
    this.pins.delete(session);
    if (this.pins.size >= this.opts.maxEntries) {
      const oldest = this.pins.keys().next();
      if (!oldest.done) this.pins.delete(oldest.value);
    }
    this.pins.set(session, pin);
  }

  private write(session: string, pin: StoredPin): void {
    if (!this.kv.connection || this.writes >= this.opts.maxWritesInFlight) return;
    this.writes++;
    const put = async () => {
      const kv = await this.kv.open();
      await deadline(kv.put(session, JSON.stringify(pin), { timeout: this.opts.timeoutMs }), this.opts.timeoutMs, "pin put");
    };
    put()
      .catch((err: unknown) => this.opts.log.debug({ err }, "session pin not shared (kept on this replica)"))
      .finally(() => this.writes--);
  }

  /** Uses this connection from now on: creates the bucket if needed and follows it with a watch. */
  attach(nc: NatsConnection): void {
    this.kv.attach(nc);
    void this.follow(nc).catch((err: unknown) => this.opts.log.warn({ err }, "session pins bucket not followed; pins stay on this replica until NATS reconnects"));
  }

  /** Forgets a closed connection. */
  detach(nc: NatsConnection): void {
    this.kv.detach(nc);
  }

  private async create(nc: NatsConnection): Promise<KV> {
    const { replicas, timeoutMs, bucketMaxBytes } = this.opts;
    const js = jetstream(nc, { timeout: timeoutMs });
    return new Kvm(js).create(PINS_BUCKET, { ttl: PIN_MAX_TTL_MS, replicas, history: 1, max_bytes: bucketMaxBytes, timeout: timeoutMs });
  }

  /** Every replica's pins into this one's memory: what the bucket holds now, then each change, until the connection goes. */
  private async follow(nc: NatsConnection): Promise<void> {
    const kv = await this.kv.open();
    const watch = await kv.watch({ key: ">" });
    for await (const e of watch) {
      if (this.kv.connection !== nc) break;
      if (e.operation !== "PUT") {
        this.pins.delete(e.key);
        continue;
      }
      const pin = parsePin(e.string());
      if (pin && pin.exp > this.now()) this.remember(e.key, { deployment: pin.d, expiresAt: pin.exp });
    }
    watch.stop();
  }
}

function parsePin(text: string): StoredPin | undefined {
  try {
    const v = JSON.parse(text) as Partial<StoredPin>;
    return typeof v.d === "string" && typeof v.exp === "number" ? { d: v.d, exp: v.exp } : undefined;
  } catch {
    return undefined;
  }
}
