import { jetstream } from "@nats-io/jetstream";
import { Kvm, type KV } from "@nats-io/kv";
import type { NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "@gateway/observability";
import { ResponseSealer } from "./seal.js";
import { KvBucket, deadline } from "../kv-bucket.js";

/** The KeyValue bucket of stored Responses (a JetStream stream `KV_RESPONSES`). */
export const RESPONSES_BUCKET = "RESPONSES";

/** A stored Response: everything a GET answers and a continuation (`previous_response_id`) needs, in one read. */
export interface StoredResponse {
  org_id: string;
  /** The Response object as answered (`store: true`). */
  response: Record<string, unknown>;
  /**
   * The conversation in the chat shape: earlier turns, this request's input and the answer's
   * assistant turn (text and tool calls). The request's `instructions` are not part of it: OpenAI
   * does not carry them over to a continuation.
   */
  messages: unknown[];
}

export interface ResponseStoreOptions {
  /** Retention of a stored response: the bucket's max age, ms. */
  retentionMs: number;
  /** Copies of the bucket on the NATS cluster. */
  replicas: number;
  /** Largest stored record, bytes (also bounded by the server's max_payload); larger answers are not stored. */
  maxBytes: number;
  /**
   * The whole bucket's bound, bytes: once full, new responses are answered with `store: false`
   * until old ones age out (the bucket discards new writes, never stored ones).
   */
  bucketMaxBytes: number;
  /** Deadline of every bucket call, ms. */
  timeoutMs: number;
  /** Seals every record (DATA_PLANE_RESPONSES_SECRET, shared by every replica). */
  secret: string;
  /**
   * Records the previous release stored unsealed are read when NATS stamped them before this
   * instant (Unix ms; the upgrade's): none written since, by anyone, is taken unsealed. 0: none.
   */
  plaintextBeforeMs: number;
  log: Logger;
}

/** What a read of the store found. */
export type Lookup = { found: true; record: StoredResponse } | { found: false };

/**
 * Stored Responses in a JetStream KeyValue bucket, read and written by the data-plane directly:
 * a record is per-request content with a retention, needing no joins or transactions, and JetStream
 * is already the data-plane's durable, replicated dependency. The bucket's max age is the retention;
 * keys are `<org_id>.<response_id>`, so an organization only ever reads its own. Every call has a
 * deadline; the bucket is created (idempotently) on each new or re-established NATS connection.
 */
export class ResponseStore {
  private readonly kv: KvBucket;
  private readonly sealer: ResponseSealer;

  constructor(private readonly opts: ResponseStoreOptions) {
    this.sealer = new ResponseSealer(opts.secret);
    this.kv = new KvBucket("responses bucket", opts.timeoutMs, (nc) => this.create(nc));
  }

  /** Uses this connection from now on; creates the bucket if it does not exist yet. */
  attach(nc: NatsConnection): void {
    this.kv.attach(nc);
    void this.open().catch((err: unknown) => this.opts.log.warn({ err }, "responses bucket not ready; retried on next use"));
  }

  /** Forgets a closed connection. */
  detach(nc: NatsConnection): void {
    this.kv.detach(nc);
  }

  private open(): Promise<KV> {
    return this.kv.open();
  }

  /** Creates the bucket, or brings an existing one to the configured retention, replicas and size. */
  private async create(nc: NatsConnection): Promise<KV> {
    const { retentionMs, replicas, timeoutMs, bucketMaxBytes } = this.opts;
    const js = jetstream(nc, { timeout: timeoutMs });
    const kv = await new Kvm(js).create(RESPONSES_BUCKET, { ttl: retentionMs, replicas, history: 1, max_bytes: bucketMaxBytes, timeout: timeoutMs });
    const jsm = await js.jetstreamManager();
    const stream = `KV_${RESPONSES_BUCKET}`;
    const { config } = await jsm.streams.info(stream);
    const maxAge = retentionMs * 1_000_000;
    if (config.max_age !== maxAge || config.num_replicas !== replicas || config.max_bytes !== bucketMaxBytes) {
      await jsm.streams.update(stream, { ...config, max_age: maxAge, num_replicas: replicas, max_bytes: bucketMaxBytes });
      this.opts.log.info({ bucket: RESPONSES_BUCKET, retention_ms: retentionMs, replicas, max_bytes: bucketMaxBytes }, "responses bucket retention/replicas/size updated");
    }
    return kv;
  }

  private key(orgId: string, responseId: string): string {
    return `${orgId}.${responseId}`;
  }

  /** Largest record this connection can store, bytes. */
  get maxBytes(): number {
    const payload = this.kv.connection?.info?.max_payload;
    // Leave room for the message's subject and headers under the server's payload limit.
    return payload ? Math.min(this.opts.maxBytes, payload - 4_096) : this.opts.maxBytes;
  }

  /**
   * Stores a record; resolves whether it was stored (never rejects): too large, or NATS away or
   * late, is `false` and the answer goes out anyway.
   */
  async put(record: StoredResponse): Promise<boolean> {
    const id = String(record.response.id);
    const key = this.key(record.org_id, id);
    const data = this.sealer.seal(record.org_id, key, JSON.stringify(record));
    const size = Buffer.byteLength(data);
    if (size > this.maxBytes) {
      this.opts.log.info({ response_id: id, bytes: size, max_bytes: this.maxBytes }, "response too large to store; answered with store: false");
      return false;
    }
    try {
      const kv = await this.open();
      await deadline(kv.put(key, data, { timeout: this.opts.timeoutMs }), this.opts.timeoutMs, "responses put");
      return true;
    } catch (err) {
      this.opts.log.warn({ err, response_id: id }, "response not stored (NATS unavailable); answered with store: false");
      return false;
    }
  }

  /** The organization's stored response; rejects when NATS is away or late. */
  async get(orgId: string, responseId: string): Promise<Lookup> {
    if (!/^[-\w]+$/.test(responseId)) return { found: false };
    const kv = await this.open();
    const key = this.key(orgId, responseId);
    const entry = await deadline(kv.get(key), this.opts.timeoutMs, "responses get");
    if (!entry || entry.operation !== "PUT") return { found: false };
    const value = entry.string();
    let text: string | undefined;
    if (ResponseSealer.isSealed(value)) text = this.sealer.open(orgId, key, value);
    else if (entry.created.getTime() < this.opts.plaintextBeforeMs) text = value;
    if (text === undefined) {
      // Forged, moved from another key, sealed under another secret, or unsealed and too recent.
      this.opts.log.warn({ response_id: responseId, org_id: orgId }, "stored response refused: not sealed for this organization and id");
      return { found: false };
    }
    const record = JSON.parse(text) as StoredResponse;
    return record.org_id === orgId ? { found: true, record } : { found: false };
  }

  /** Removes the organization's stored response (its content is purged); rejects when NATS is away or late. */
  async delete(orgId: string, responseId: string): Promise<boolean> {
    if (!(await this.get(orgId, responseId)).found) return false;
    const kv = await this.open();
    await deadline(kv.purge(this.key(orgId, responseId)), this.opts.timeoutMs, "responses delete");
    return true;
  }
}
