import type { KV } from "@nats-io/kv";
import type { NatsConnection } from "@nats-io/transport-node";

/**
 * Rejects with `what` timed out after `ms` unless `p` settles first (the KeyValue buckets' calls:
 * responses/store.ts, routing/session-pins.ts). The timer is cleared either way.
 */
export async function deadline<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([p, new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} timed out after ${ms} ms`)), ms)))]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * A JetStream KeyValue bucket on the replica's current NATS connection (the stored Responses', the
 * session pins'): created (idempotently, by `create`) on first use after each new or re-established
 * connection, with a deadline; a failed creation is tried again by the next use.
 */
export class KvBucket {
  private nc: NatsConnection | undefined;
  private bucket: Promise<KV> | undefined;

  constructor(
    /** What the bucket is, for the deadline's message. */
    private readonly what: string,
    private readonly timeoutMs: number,
    private readonly create: (nc: NatsConnection) => Promise<KV>,
  ) {}

  /** The connection in use, if any. */
  get connection(): NatsConnection | undefined {
    return this.nc;
  }

  /** Uses this connection from now on (the bucket is opened again on it). */
  attach(nc: NatsConnection): void {
    this.nc = nc;
    this.bucket = undefined;
  }

  /** Forgets a closed connection. */
  detach(nc: NatsConnection): void {
    if (this.nc !== nc) return;
    this.nc = undefined;
    this.bucket = undefined;
  }

  open(): Promise<KV> {
    const nc = this.nc;
    if (!nc) return Promise.reject(new Error("NATS is not connected"));
    if (!this.bucket) {
      const p = deadline(this.create(nc), this.timeoutMs, `${this.what} creation`);
      p.catch(() => {
        if (this.bucket === p) this.bucket = undefined;
      });
      this.bucket = p;
    }
    return this.bucket;
  }
}
