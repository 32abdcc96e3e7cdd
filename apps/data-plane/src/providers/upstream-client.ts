import type { TLSSocket } from "node:tls";
import { Agent, buildConnector, Dispatcher, errors as undiciErrors, request } from "undici";
import { GatewayError } from "@gateway/errors";
import { trace, type Histogram } from "@gateway/observability";
import type { CatalogProvider, UpstreamHttpRequest } from "./types.js";

export interface UpstreamResponse {
  status: number;
  headers: Dispatcher.ResponseData["headers"];
  body: Dispatcher.ResponseData["body"];
}

/** A signal that never aborts: for provider calls that must finish even when the client left. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** Why an attempt failed before a response: decides whether the next deployment is tried. */
export class UpstreamTransportError extends Error {
  constructor(
    readonly kind: "timeout" | "connect" | "aborted",
    message: string,
    /**
     * The request reached the provider before the attempt gave up on it (a timeout waiting for its
     * answer, not for a connection): the provider may be generating it, and will bill it.
     */
    readonly sent = false,
  ) {
    super(message);
  }
}

/**
 * Connections one replica opens to a provider's origin when the catalog says 0. Sized for thousands
 * of concurrent LLM streams per replica (a stream holds its HTTP/1.1 connection for its whole
 * length, tens of seconds): at 512, a burst of 2,000 four-second streams ran 515 at once and queued
 * the rest. Each open connection costs a file descriptor and some tens of KiB (docs/performance.md, "2,000 concurrent streams").
 */
export const DEFAULT_MAX_CONNECTIONS = 4096;
/**
 * HTTP/2 streams one session carries before the pool opens another session: at or below what
 * providers advertise in SETTINGS_MAX_CONCURRENT_STREAMS (Node and Google 100, nginx 128,
 * Cloudflare 256), so streams never wait unseen inside a session.
 */
export const H2_STREAMS_PER_SESSION = 100;
/** Deadline of the TCP + TLS handshake, ms. */
const CONNECT_TIMEOUT_MS = 5_000;
/** How often queued and header-awaiting requests are checked against their deadline, ms. */
const SWEEP_MS = 100;

/** The catalog fields that shape a provider's pool. */
export type PoolSettings = Pick<CatalogProvider, "code" | "base_url" | "max_connections" | "http2">;

export interface UpstreamClientOptions {
  /** Seconds from dispatch until the request is written on a connection, by provider. */
  connectionWait: Histogram<"provider">;
  /** The catalog's providers now: pools of providers no longer there, or changed, are closed. */
  providers?: () => ReadonlyMap<string, PoolSettings>;
  /** Tracing is on: the attempt's span (the active one) gets the provider's HTTP status. */
  traced?: boolean;
}

/**
 * Pooled keep-alive HTTP client for provider calls: one bounded pool per catalog provider (its
 * `max_connections`, HTTP/2 when it says so), created on the first call, closed when the catalog
 * drops or changes the provider (requests in flight on the old pool finish there).
 *
 * The per-attempt timeout bounds the wait for a connection plus the wait for the response headers,
 * and every idle gap between body chunks, not the body's length: a stream that keeps producing
 * runs as long as it produces (a long generation is not cut at the timeout), one that stalls is
 * cut. Connecting has its own 5 s deadline. The attempt follows `signal` (the client going away).
 *
 * No timer or composite signal per request (AbortSignal.timeout / AbortSignal.any per request
 * leaked memory): undici's own headers and body timeouts run on the socket, and one shared sweep
 * fails requests still waiting for a connection or for headers past their deadline.
 */
export class UpstreamClient {
  private readonly pools = new Map<string, ProviderPool>();
  /** Requests dispatched whose headers have not arrived: the sweep's whole work list. */
  private readonly pending = new Set<Attempt>();
  private readonly sweeper: NodeJS.Timeout;
  private seenProviders: ReadonlyMap<string, PoolSettings> | undefined;

  constructor(private readonly opts: UpstreamClientOptions) {
    this.sweeper = setInterval(() => this.sweep(), SWEEP_MS);
    this.sweeper.unref();
  }

  async send(provider: PoolSettings, req: UpstreamHttpRequest, timeoutMs: number, signal: AbortSignal): Promise<{ res: UpstreamResponse; signal: AbortSignal }> {
    try {
      const opts = {
        method: req.method ?? "POST",
        headers: req.headers,
        body: req.body,
        // A call that runs to its end whatever the client does needs no abort listener at all.
        signal: signal === NEVER_ABORTED ? undefined : signal,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
        // Lets POSTs share an HTTP/2 session (undici runs a non-idempotent request alone on a
        // connection). Nothing is replayed on failure; an HTTP/1.1 pool never pipelines.
        idempotent: true,
      };
      const pool = this.pool(provider);
      // The usual URL is split by hand: undici's request(url) builds a WHATWG URL per call.
      const at = plainOrigin(req.url);
      const res = at > 0 ? await pool.request({ ...opts, origin: req.url.slice(0, at), path: req.url.slice(at) }) : await request(req.url, { ...opts, dispatcher: pool });
      if (this.opts.traced) trace.getActiveSpan()?.setAttribute("http.response.status_code", res.statusCode);
      return { res: { status: res.statusCode, headers: res.headers, body: res.body }, signal };
    } catch (err) {
      throw classify(err, signal);
    }
  }

  /** Open pools, for tests and metrics. */
  get poolCount(): number {
    return this.pools.size;
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    const pools = [...this.pools.values()];
    this.pools.clear();
    await Promise.all(pools.map((p) => p.close()));
  }

  private pool(provider: PoolSettings): ProviderPool {
    const found = this.pools.get(provider.code);
    if (found?.serves(provider)) return found;
    if (found) void found.close();
    const pool = new ProviderPool(provider, this.pending, this.opts.connectionWait.labels({ provider: provider.code }));
    this.pools.set(provider.code, pool);
    return pool;
  }

  private sweep(): void {
    const providers = this.opts.providers?.();
    if (providers && providers !== this.seenProviders) {
      this.seenProviders = providers;
      for (const [code, pool] of this.pools) {
        const now = providers.get(code);
        if (now && pool.serves(now)) continue;
        this.pools.delete(code);
        void pool.close();
      }
    }
    if (this.pending.size === 0) return;
    const now = performance.now();
    for (const a of this.pending) a.check(now);
  }
}

/** One provider's pool: an undici Agent (one pool per origin) sized from the catalog. */
class ProviderPool extends Dispatcher {
  private readonly agent: Agent;
  private readonly settings: { maxConnections: number; h2: boolean; baseUrl: string };

  constructor(
    provider: PoolSettings,
    private readonly pending: Set<Attempt>,
    private readonly wait: { observe(v: number): void },
  ) {
    super();
    const h2 = provider.http2 && provider.base_url.startsWith("https:");
    const connections = provider.max_connections > 0 ? provider.max_connections : DEFAULT_MAX_CONNECTIONS;
    this.settings = { maxConnections: provider.max_connections, h2: provider.http2, baseUrl: provider.base_url };
    this.agent = new Agent({
      keepAliveTimeout: 30_000,
      keepAliveMaxTimeout: 120_000,
      connections,
      ...(h2 ? { allowH2: true, pipelining: H2_STREAMS_PER_SESSION, connect: h2Only(provider.code) } : { connect: { timeout: CONNECT_TIMEOUT_MS } }),
    });
  }

  serves(p: PoolSettings): boolean {
    return p.max_connections === this.settings.maxConnections && p.http2 === this.settings.h2 && p.base_url === this.settings.baseUrl;
  }

  override dispatch(opts: Dispatcher.DispatchOptions, handler: Dispatcher.DispatchHandler): boolean {
    // UpstreamClient.send sets headersTimeout to the attempt's timeout.
    const timeoutMs = opts.headersTimeout ?? 300_000;
    // request() passes its options through: the signal is the attempt's.
    const a = new Attempt(handler, (opts as { signal?: AbortSignal }).signal, performance.now(), timeoutMs, this.pending, this.wait);
    this.pending.add(a);
    return this.agent.dispatch(opts, a);
  }

  override close(): Promise<void> {
    return this.agent.close();
  }

  override destroy(): Promise<void> {
    return this.agent.destroy();
  }
}

/**
 * An HTTP/2 pool multiplexes up to H2_STREAMS_PER_SESSION requests per connection; on an HTTP/1.1
 * connection that would be pipelining, which a stream of tens of seconds must never sit behind.
 * So a provider marked http2 must negotiate it: a connection that does not is refused, naming why.
 */
function h2Only(provider: string): buildConnector.connector {
  const connect = buildConnector({ timeout: CONNECT_TIMEOUT_MS, allowH2: true });
  return (options, callback) => {
    connect(options, (err, socket) => {
      if (err || !socket) return callback(err ?? new Error("no socket"), null);
      if (options.protocol === "https:" && (socket as TLSSocket).alpnProtocol !== "h2") {
        socket.destroy();
        return callback(new Error(`provider ${provider} did not negotiate HTTP/2 (http2 is set in the catalog)`), null);
      }
      callback(null, socket);
    });
  };
}

const QUEUED = 0;
const SENT = 1;
const DONE = 2;
/** Marks an error of a request that had been written on a connection (read by classify). */
const WRITTEN = Symbol("written");

/**
 * Wraps the request's handler (undici's legacy handler shape, which `request()` uses) to measure
 * the wait for a connection (dispatch → onConnect, called when the request is written on a socket
 * or HTTP/2 session) and to fail it at its deadline, whether still queued or awaiting headers.
 */
class Attempt implements Dispatcher.DispatchHandler {
  private state = QUEUED;
  private abortRequest: ((err?: Error) => void) | undefined;
  private readonly deadline: number;

  constructor(
    private readonly inner: Dispatcher.DispatchHandler,
    private readonly signal: AbortSignal | undefined,
    private readonly startedAt: number,
    timeoutMs: number,
    private readonly pending: Set<Attempt>,
    private readonly wait: { observe(v: number): void },
  ) {
    this.deadline = startedAt + timeoutMs;
  }

  /** Called by the sweep: past the deadline, a queued request fails at once and is skipped when its turn comes; a sent one is aborted. */
  check(now: number): void {
    if (this.state === QUEUED && this.signal?.aborted) {
      this.fail(this.signal.reason instanceof Error ? this.signal.reason : new undiciErrors.RequestAbortedError());
      return;
    }
    if (now < this.deadline) return;
    const err = new UpstreamTransportError(
      "timeout",
      this.state === QUEUED ? "the provider did not answer in time (no connection free before the timeout)" : "the provider did not answer in time",
      this.state === SENT,
    );
    if (this.state === SENT && this.abortRequest) {
      this.pending.delete(this);
      this.abortRequest(err);
    } else if (this.state === QUEUED) {
      this.wait.observe((now - this.startedAt) / 1000);
      this.fail(err);
    }
  }

  private fail(err: Error): void {
    this.state = DONE;
    this.pending.delete(this);
    this.inner.onError?.(err);
  }

  onConnect(abort: (err?: Error) => void, context?: object): void {
    if (this.state === DONE) {
      // Already failed while queued: throwing errors the request without writing it, and without
      // closing the connection it was about to use (calling abort would).
      throw new undiciErrors.RequestAbortedError("expired while waiting for a connection");
    }
    if (this.state === QUEUED) {
      this.wait.observe((performance.now() - this.startedAt) / 1000);
      if (this.signal?.aborted) throw this.signal.reason instanceof Error ? this.signal.reason : new undiciErrors.RequestAbortedError();
    }
    this.state = SENT;
    this.abortRequest = abort;
    (this.inner.onConnect as (abort: (err?: Error) => void, context?: object) => void)(abort, context);
  }

  onHeaders(statusCode: number, headers: Buffer[], resume: () => void, statusText: string): boolean {
    if (statusCode >= 200) this.pending.delete(this);
    return this.inner.onHeaders!(statusCode, headers, resume, statusText);
  }

  onData(chunk: Buffer): boolean {
    return this.inner.onData!(chunk);
  }

  onComplete(trailers: string[] | null): void {
    this.pending.delete(this);
    this.inner.onComplete!(trailers);
  }

  onError(err: Error): void {
    if (this.state === DONE) return;
    // The request was written before it failed (a client's abort included): the provider had it.
    if (this.state === SENT && err) Object.defineProperty(err, WRITTEN, { value: true });
    this.state = DONE;
    this.pending.delete(this);
    this.inner.onError?.(err);
  }

  onUpgrade(statusCode: number, headers: Buffer[] | string[] | null, socket: import("node:stream").Duplex): void {
    this.pending.delete(this);
    this.inner.onUpgrade?.(statusCode, headers, socket);
  }

  onResponseStarted(): void {
    this.inner.onResponseStarted?.();
  }

  onBodySent(chunkSize: number, totalBytesSent: number): void {
    this.inner.onBodySent?.(chunkSize, totalBytesSent);
  }
}

/**
 * Where the path starts in `http(s)://host[:port]/path?query` (the origin is before it), or -1 for
 * anything URL parsing would change or refuse (credentials, a fragment, a backslash, spaces or
 * non-ASCII characters, no path, another scheme): those go through undici's URL parsing as before.
 */
export function plainOrigin(url: string): number {
  const start = url.startsWith("https://") ? 8 : url.startsWith("http://") ? 7 : -1;
  if (start < 0) return -1;
  const slash = url.indexOf("/", start);
  if (slash <= start) return -1;
  for (let i = start; i < url.length; i++) {
    const c = url.charCodeAt(i);
    if (c <= 0x20 || c >= 0x7f || c === 0x23 || c === 0x5c || (i < slash && (c === 0x40 || c === 0x3f))) return -1;
  }
  return slash;
}

/** A provider's error answer, mapped, marked with its HTTP status (the attempt record's; never sent to callers). */
export function withUpstreamStatus(err: GatewayError, status: number): GatewayError {
  err.context.upstream_status = status;
  return err;
}

export function classify(err: unknown, clientSignal: AbortSignal): UpstreamTransportError | GatewayError {
  if (err instanceof GatewayError || err instanceof UpstreamTransportError) return err;
  // `sent`: the request had been written when it was aborted (the provider had it), not still queued.
  if (clientSignal.aborted) return new UpstreamTransportError("aborted", "client went away", err instanceof Error && WRITTEN in err);
  const name = err instanceof Error ? err.name : "";
  if (err instanceof undiciErrors.ConnectTimeoutError) return new UpstreamTransportError("timeout", "the provider did not accept a connection in time");
  if (name === "TimeoutError" || err instanceof undiciErrors.HeadersTimeoutError || err instanceof undiciErrors.BodyTimeoutError) {
    return new UpstreamTransportError("timeout", "the provider did not answer in time", true);
  }
  return new UpstreamTransportError("connect", `could not reach the provider: ${err instanceof Error ? err.message : String(err)}`);
}
