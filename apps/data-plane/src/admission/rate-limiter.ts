import { GatewayError } from "@gateway/errors";

const WINDOW_MS = 60_000;

interface Counts {
  requests: number;
  tokens: number;
}

interface KeyWindow {
  window: number;
  cur: Counts;
  prev: Counts;
  /** Counts changed since the last gossip round. */
  dirty: boolean;
}

/** A replica's cumulative counts for one key in one window, as gossiped. */
export interface GossipEntry {
  key: string;
  requests: number;
  tokens: number;
}

export interface GossipMessage {
  replica: string;
  /** Window number: floor(unix ms / 60000). */
  window: number;
  entries: GossipEntry[];
}

/** What is left of a key's limits after admitting a request (for x-ratelimit-* headers). */
export interface RateLimitState {
  rpm: number;
  tpm: number;
  remainingRequests: number | undefined;
  remainingTokens: number | undefined;
  /** Seconds until the current minute window rolls over. */
  resetS: number;
}

export interface RateLimiterOptions {
  replicaId: string;
  /** Bound on keys tracked (local and remote); the oldest windows are dropped first. */
  maxKeys: number;
  now?: () => number;
}

/**
 * Per-key requests-per-minute and tokens-per-minute limits that hold across replicas without a
 * round trip per request. Each replica counts locally in fixed one-minute windows, weighted into a
 * sliding window (previous window × the part of it still inside the last 60 s, plus the current
 * window), and gossips its cumulative per-key counts to the other replicas over NATS a few times a
 * second. A request is admitted while local + remote stays under the limit. The only slack is what
 * other replicas admitted since their last gossip reached this one (see docs/billing.md).
 */
export class RateLimiter {
  private readonly local = new Map<string, KeyWindow>();
  /** key → replica → counts for window w (cur) and w-1 (prev). */
  private readonly remote = new Map<string, Map<string, { window: number; cur: Counts; prev: Counts }>>();
  private readonly now: () => number;
  /** The window the maps were last pruned in. */
  private prunedWindow = 0;

  constructor(private readonly opts: RateLimiterOptions) {
    this.now = opts.now ?? Date.now;
  }

  /** Keys tracked (local and remote), for tests and metrics. */
  get size(): number {
    return this.local.size + this.remote.size;
  }

  private windowOf(t: number): number {
    return Math.floor(t / WINDOW_MS);
  }

  /**
   * A key's counts matter for two windows (the sliding estimate reads w and w-1): once a minute,
   * keys not seen since before w-1 are dropped, so the maps hold the keys of the last two minutes
   * rather than every key seen until `maxKeys` pushes them out. One pass per window.
   */
  private prune(w: number): void {
    if (w === this.prunedWindow) return;
    this.prunedWindow = w;
    for (const [key, k] of this.local) if (k.window < w - 1) this.local.delete(key);
    for (const [key, byReplica] of this.remote) {
      for (const [replica, r] of byReplica) if (r.window < w - 1) byReplica.delete(replica);
      if (byReplica.size === 0) this.remote.delete(key);
    }
  }

  private localFor(key: string, w: number): KeyWindow {
    this.prune(w);
    let k = this.local.get(key);
    if (!k) {
      k = { window: w, cur: { requests: 0, tokens: 0 }, prev: { requests: 0, tokens: 0 }, dirty: false };
      this.local.set(key, k);
      if (this.local.size > this.opts.maxKeys) this.evict(this.local);
    } else if (k.window !== w) {
      k.prev = k.window === w - 1 ? k.cur : { requests: 0, tokens: 0 };
      k.cur = { requests: 0, tokens: 0 };
      k.window = w;
    }
    return k;
  }

  private evict<T>(m: Map<string, T>): void {
    const first = m.keys().next().value;
    if (first !== undefined) m.delete(first);
  }

  /** Sliding-window estimate of a key's usage across all replicas. */
  private estimate(key: string, t: number): Counts {
    const w = this.windowOf(t);
    const weight = 1 - (t - w * WINDOW_MS) / WINDOW_MS;
    let requests = 0;
    let tokens = 0;
    const add = (win: number, cur: Counts, prev: Counts) => {
      if (win === w) {
        requests += cur.requests + prev.requests * weight;
        tokens += cur.tokens + prev.tokens * weight;
      } else if (win === w - 1) {
        requests += cur.requests * weight;
        tokens += cur.tokens * weight;
      }
    };
    const l = this.local.get(key);
    if (l) add(l.window, l.cur, l.prev);
    for (const r of this.remote.get(key)?.values() ?? []) add(r.window, r.cur, r.prev);
    return { requests, tokens };
  }

  /**
   * Admits one request for `key` or throws 429 with Retry-After. rpm/tpm 0 = no limit. The
   * request is counted on admission; tokens are added by {@link addTokens} when known.
   */
  admit(key: string, rpm: number, tpm: number): RateLimitState | undefined {
    if (rpm <= 0 && tpm <= 0) return undefined;
    const t = this.now();
    const est = this.estimate(key, t);
    if (rpm > 0 && est.requests + 1 > rpm) throw this.limited("requests", rpm, t);
    if (tpm > 0 && est.tokens >= tpm) throw this.limited("tokens", tpm, t);
    const k = this.localFor(key, this.windowOf(t));
    k.cur.requests++;
    k.dirty = true;
    return {
      rpm,
      tpm,
      remainingRequests: rpm > 0 ? Math.max(0, Math.floor(rpm - est.requests - 1)) : undefined,
      remainingTokens: tpm > 0 ? Math.max(0, Math.floor(tpm - est.tokens)) : undefined,
      resetS: Math.ceil((WINDOW_MS - (t % WINDOW_MS)) / 1000),
    };
  }

  /** Adds the tokens a finished request used (input + output). */
  addTokens(key: string, tokens: number): void {
    if (tokens <= 0) return;
    const k = this.localFor(key, this.windowOf(this.now()));
    k.cur.tokens += tokens;
    k.dirty = true;
  }

  private limited(what: "requests" | "tokens", limit: number, t: number): GatewayError {
    // The weighted previous window fades linearly; a second is the finest useful hint.
    const retry = Math.max(1, Math.ceil((WINDOW_MS - (t % WINDOW_MS)) / 1000 / 4));
    return new GatewayError("rate_limit_exceeded", `Rate limit reached: this key may make ${limit} ${what === "requests" ? "requests" : "tokens"} per minute.`, { retry_after_s: retry });
  }

  /**
   * Requests admitted for `key` in the current window: by this replica (`local`), and by the others
   * as their gossip told it (`remote`). For tests that wait for gossip to arrive, and for metrics.
   */
  counted(key: string): { local: number; remote: number } {
    const w = this.windowOf(this.now());
    const l = this.local.get(key);
    let remote = 0;
    for (const r of this.remote.get(key)?.values() ?? []) if (r.window === w) remote += r.cur.requests;
    return { local: l && l.window === w ? l.cur.requests : 0, remote };
  }

  /** Counts changed since the last call, for gossip (cumulative, so a lost message is harmless). */
  drainGossip(): GossipMessage | undefined {
    const w = this.windowOf(this.now());
    this.prune(w);
    const entries: GossipEntry[] = [];
    for (const [key, k] of this.local) {
      if (!k.dirty) continue;
      k.dirty = false;
      if (k.window !== w) continue;
      entries.push({ key, requests: k.cur.requests, tokens: k.cur.tokens });
    }
    return entries.length ? { replica: this.opts.replicaId, window: w, entries } : undefined;
  }

  /** Folds another replica's gossip in. */
  absorb(msg: GossipMessage): void {
    if (msg.replica === this.opts.replicaId) return;
    this.prune(this.windowOf(this.now()));
    for (const e of msg.entries) {
      let byReplica = this.remote.get(e.key);
      if (!byReplica) {
        byReplica = new Map();
        this.remote.set(e.key, byReplica);
        if (this.remote.size > this.opts.maxKeys) this.evict(this.remote);
      }
      const r = byReplica.get(msg.replica);
      const counts = { requests: e.requests, tokens: e.tokens };
      if (!r || r.window < msg.window) {
        byReplica.set(msg.replica, { window: msg.window, cur: counts, prev: r && r.window === msg.window - 1 ? r.cur : { requests: 0, tokens: 0 } });
      } else if (r.window === msg.window) {
        // Cumulative counts only grow within a window; keep the larger (messages may reorder).
        r.cur = { requests: Math.max(r.cur.requests, counts.requests), tokens: Math.max(r.cur.tokens, counts.tokens) };
      }
    }
  }
}
