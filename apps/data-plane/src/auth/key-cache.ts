import { GatewayError } from "@gateway/errors";
import type { KeyContext } from "@gateway/proto";

/** Looks a key up at the control-plane by its hash; undefined = no such key. */
export type KeyLookup = (keyHash: string) => Promise<KeyContext | undefined>;

export interface KeyCacheOptions {
  /** Fresh lifetime of a found key, ms. */
  ttlMs: number;
  /** How long past freshness a found key may serve while the control-plane is unreachable, ms. */
  maxStaleMs: number;
  /** Lifetime of a "no such key" answer, ms. */
  negativeTtlMs: number;
  /** Bound on entries (found and unknown together); the least recently used go first. */
  maxEntries: number;
  now?: () => number;
}

/** How often `set` sweeps out entries past their stale bound, ms. */
const SWEEP_MS = 10_000;

interface Entry {
  key: KeyContext | undefined;
  freshUntil: number;
  staleUntil: number;
}

/**
 * Key contexts by secret hash: TTL-bounded, LRU-bounded, evicted by change events, stale-if-error
 * for known keys only (an unknown key while the control-plane is down is refused: fail closed).
 * Concurrent misses for one hash share one lookup.
 */
export class KeyCache {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<KeyContext | undefined>>();
  private readonly now: () => number;
  private nextSweep = 0;
  /** Bumped by every eviction: a lookup that was in flight across one may carry the answer from before it. */
  private generation = 0;

  constructor(
    private readonly lookup: KeyLookup,
    private readonly opts: KeyCacheOptions,
  ) {
    this.now = opts.now ?? Date.now;
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * The cached answer while it is fresh, without a lookup or a promise: `{ key }` (key undefined =
   * known not to exist), or undefined when only `get` can answer.
   */
  fresh(keyHash: string): { key: KeyContext | undefined } | undefined {
    const entry = this.entries.get(keyHash);
    if (!entry || entry.freshUntil <= this.now()) return undefined;
    // Refresh recency for LRU order.
    this.entries.delete(keyHash);
    this.entries.set(keyHash, entry);
    return entry;
  }

  /** The key for this hash, or undefined when it does not exist. Throws service_unavailable. */
  async get(keyHash: string): Promise<KeyContext | undefined> {
    const hit = this.fresh(keyHash);
    if (hit) return hit.key;
    const entry = this.entries.get(keyHash);
    try {
      return await this.load(keyHash);
    } catch (err) {
      if (entry?.key && entry.staleUntil > this.now() && err instanceof GatewayError && err.code === "service_unavailable") {
        return entry.key;
      }
      throw err;
    }
  }

  private load(keyHash: string): Promise<KeyContext | undefined> {
    const pending = this.inflight.get(keyHash);
    if (pending) return pending;
    const p = this.fetch(keyHash, 1).finally(() => this.inflight.delete(keyHash));
    this.inflight.set(keyHash, p);
    return p;
  }

  /**
   * One lookup, cached unless a change event (a revocation …) arrived while it was in flight: its
   * answer may predate the change, and caching it would undo the eviction for a whole TTL. Then it
   * asks again (once); a second answer overtaken too is returned to this request only, not cached.
   */
  private async fetch(keyHash: string, retries: number): Promise<KeyContext | undefined> {
    const generation = this.generation;
    const key = await this.lookup(keyHash);
    if (generation !== this.generation) return retries > 0 ? this.fetch(keyHash, retries - 1) : key;
    const now = this.now();
    const ttl = key ? this.opts.ttlMs : this.opts.negativeTtlMs;
    this.set(keyHash, { key, freshUntil: now + ttl, staleUntil: now + ttl + (key ? this.opts.maxStaleMs : 0) });
    return key;
  }

  private set(keyHash: string, entry: Entry): void {
    this.entries.delete(keyHash);
    this.entries.set(keyHash, entry);
    // Entries past their stale bound serve nothing (the next request reloads them): swept at most
    // every SWEEP_MS, so unknown keys (a scanner, a client with a typo) leave the cache seconds
    // after they stop rather than staying until maxEntries newer ones push them out.
    const now = this.now();
    if (now >= this.nextSweep) {
      this.nextSweep = now + SWEEP_MS;
      for (const [hash, e] of this.entries) if (e.staleUntil <= now) this.entries.delete(hash);
    }
    while (this.entries.size > this.opts.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  /** A key changed (created, revoked): forget it so the next request asks again. */
  evictHash(keyHash: string): void {
    this.generation++;
    this.entries.delete(keyHash);
  }

  evictKeyId(keyId: string): void {
    this.generation++;
    for (const [hash, e] of this.entries) if (e.key?.key_id === keyId) this.entries.delete(hash);
  }

  /** An organization changed: forget every key of it. Rare, so a scan is fine. */
  evictOrg(orgId: string): void {
    this.generation++;
    for (const [hash, e] of this.entries) if (e.key?.org_id === orgId) this.entries.delete(hash);
  }

  /**
   * Change events may have been missed (NATS reconnect): keep entries for stale-if-error but
   * make every one revalidate on next use.
   */
  expireAll(): void {
    this.generation++;
    for (const e of this.entries.values()) e.freshUntil = 0;
    for (const [hash, e] of this.entries) if (!e.key) this.entries.delete(hash);
  }
}
