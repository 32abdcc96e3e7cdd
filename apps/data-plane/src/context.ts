import { setTimeout as sleep } from "node:timers/promises";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { CONTROL_CHANGED_SUBJECT, ControlChangedV1, INBOX_PREFIX, RATE_LIMIT_GOSSIP_SUBJECT, RateLimitGossipV1, decodeEvent, encodeEvent, signUsage } from "@gateway/events";
import { natsAuthProblem, natsTlsOptions } from "@gateway/nats";
import { RateLimiter } from "./admission/rate-limiter.js";
import { ContextChecker } from "./admission/context-check.js";
import { CircuitBreaker } from "./providers/circuit-breaker.js";
import { McpUpstreams } from "./mcp/upstream.js";
import { createLogger, createMetricsRegistry, startTracing, type Logger, type Tracing } from "@gateway/observability";
import { tracedClient } from "@gateway/proto/tracing";
import { bearer, channelCredentials, controlService, createClient, ledgerService, type ControlServiceMethods, type LedgerServiceMethods, type TypedClient } from "@gateway/proto";
import { GatewayError } from "@gateway/errors";
import { Counter, Histogram, Gauge } from "@gateway/observability";
import type { DataPlaneConfig } from "./config.js";
import { KeyCache } from "./auth/key-cache.js";
import { CatalogCache } from "./catalog/catalog-cache.js";
import { LeaseManager } from "./credits/lease-manager.js";
import { UsagePublisher } from "./usage/publisher.js";
import { JetStreamPublish } from "./usage/jetstream-publish.js";
import { UsageSpool } from "./usage/spool.js";
import { RefusalRecorder } from "./usage/refusals.js";
import { UpstreamClient } from "./providers/upstream-client.js";
import { MediaUrlChecker, parseStaticHosts } from "./video/media-url.js";
import { VideoJobs } from "./video/jobs.js";
import { ResponseStore } from "./responses/store.js";
import { SessionPins } from "./routing/session-pins.js";

export type DataPlaneMetrics = ReturnType<typeof buildMetrics>;

/** Every dependency of the data-plane, built once. Tests pass overrides (e.g. a logger). */
export interface DataPlaneContext {
  config: DataPlaneConfig;
  log: Logger;
  metrics: DataPlaneMetrics;
  control: TypedClient<ControlServiceMethods>;
  ledger: TypedClient<LedgerServiceMethods>;
  keys: KeyCache;
  catalog: CatalogCache;
  leases: LeaseManager;
  publisher: UsagePublisher;
  /** Records of requests refused before routing: rate-limited per key, never spooled (usage/refusals.ts). */
  refusals: RefusalRecorder;
  upstream: UpstreamClient;
  rateLimiter: RateLimiter;
  breaker: CircuitBreaker;
  /** This replica's sessions with MCP upstreams (docs/mcp.md). */
  mcp: McpUpstreams;
  /** Present when the context-window pre-check is enabled. */
  contextChecker: ContextChecker | undefined;
  /** SSRF checks of video media URLs. */
  media: MediaUrlChecker;
  /** Video job refresh, settlement and the reconciler. */
  videoJobs: VideoJobs;
  /** Stored Responses (the RESPONSES KeyValue bucket). */
  responses: ResponseStore;
  /** Agent sessions' pinned deployments (the PINS bucket, followed by a watch); absent when DATA_PLANE_SESSION_PINS is off. */
  pins: SessionPins | undefined;
  nats: { current: NatsConnection | undefined; js: JetStreamPublish | undefined };
  /** Present only when spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT): the request path checks it. */
  tracing: Tracing | undefined;
  /** The clock a stream's timing is read on, ms (absent: performance.now); tests script it. */
  now?: () => number;
  /** Aborts when the replica's stream drain on shutdown ended: open streams end with their error event (index.ts stop). */
  shutdown?: AbortSignal;
}

export interface ContextOverrides {
  log?: Logger;
}

function buildMetrics() {
  const registry = createMetricsRegistry("data-plane");
  return {
    registry,
    httpRequests: new Counter({ name: "gateway_http_requests_total", help: "HTTP requests by route and status", labelNames: ["route", "status"], registers: [registry] }),
    httpDuration: new Histogram({
      name: "gateway_http_request_duration_seconds",
      help: "Time to the last byte, by route",
      labelNames: ["route"],
      buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
      registers: [registry],
    }),
    /** Open WebSocket connections of the Responses API (routes/responses-websocket.ts). */
    wsConnections: new Gauge({ name: "gateway_websocket_connections", help: "Open Responses API WebSocket connections", registers: [registry] }),
    upstreamAttempts: new Counter({ name: "gateway_upstream_attempts_total", help: "Provider attempts by outcome", labelNames: ["provider", "outcome"], registers: [registry] }),
    /**
     * MCP tools whose upstream serves a definition other than the pinned one, or a tool new since
     * its server's tools were pinned (a rename, a tool added), docs/mcp.md; once per replica and definition.
     */
    mcpDefinitionChanged: new Counter({
      name: "gateway_mcp_tool_definition_changed_total",
      help: "MCP tools whose server serves a changed definition (or a tool new since its tools were pinned), held until an operator approves it",
      labelNames: ["server", "tool"],
      registers: [registry],
    }),
    /** MCP tools whose definition is over the size the gateway pins (docs/mcp.md): neither listed nor called; once per replica and definition. */
    mcpDefinitionTooLarge: new Counter({
      name: "gateway_mcp_tool_definition_too_large_total",
      help: "MCP tools whose server serves a definition over the size limit, neither listed nor called",
      labelNames: ["server", "tool"],
      registers: [registry],
    }),
    published: new Counter({
      name: "gateway_usage_events_total",
      help: "Usage events by result (acked, spooled, replayed, dead_lettered: refused by NATS for good, in the dead-letter file)",
      labelNames: ["result"],
      registers: [registry],
    }),
    publishBatch: new Histogram({
      name: "gateway_usage_publish_batch_events",
      help: "Usage events per JetStream publish (coalesced per event-loop turn and while publishes await acknowledgement)",
      buckets: [1, 2, 4, 8, 16, 32, 64],
      registers: [registry],
    }),
    refusalRecords: new Counter({
      name: "gateway_refusal_records_total",
      help: "Records of requests refused before routing, by result (published; rate_limited: over the key's rate; dropped: NATS did not take it, never spooled)",
      labelNames: ["result"],
      registers: [registry],
    }),
    spoolSkippedLines: new Counter({ name: "gateway_usage_spool_skipped_lines_total", help: "Usage spool lines skipped by replay (torn or unparseable)", registers: [registry] }),
    guardrailOutcomes: new Counter({
      name: "gateway_guardrail_outcomes_total",
      help: "Guardrail rule outcomes by plugin (pass, denied, masked, logged, error)",
      labelNames: ["plugin", "outcome"],
      registers: [registry],
    }),
    upstreamConnectionWait: new Histogram({
      name: "gateway_upstream_connection_wait_seconds",
      help: "Time a provider request waited for a connection (dispatch to written on a socket or HTTP/2 session), by provider",
      labelNames: ["provider"],
      buckets: [0.001, 0.01, 0.05, 0.1, 0.5, 1, 5, 30],
      registers: [registry],
    }),
  };
}

/** How often a refusal of this replica's own credentials is logged, ms (every call fails alike). */
const REFUSAL_LOG_EVERY_MS = 10_000;

/**
 * A control-plane or ledger refusing this data-plane's credentials is the gateway's misconfiguration,
 * not the API caller's: it becomes service_unavailable (fail closed: unknown keys 503, no credit
 * without a hold; known keys keep their cached context), logged at most every REFUSAL_LOG_EVERY_MS.
 */
function refusalIsOutage(peer: string, variable: string, log: Logger): (err: GatewayError) => GatewayError {
  let loggedAt = Number.NEGATIVE_INFINITY;
  return (err) => {
    if (err.code !== "unauthenticated_caller" && err.code !== "caller_not_allowed") return err;
    if (Date.now() - loggedAt >= REFUSAL_LOG_EVERY_MS) {
      loggedAt = Date.now();
      log.error({ peer, code: err.code, detail: err.message }, `the ${peer} refused this data-plane's credentials: check ${variable} (and the gRPC TLS files)`);
    }
    return new GatewayError("service_unavailable", `${peer === "ledger" ? "Billing" : "Key and model configuration"} is temporarily unavailable; please retry.`, { retry_after_s: 1 });
  };
}

export function createContext(config: DataPlaneConfig, overrides: ContextOverrides = {}): DataPlaneContext {
  const log = overrides.log ?? createLogger({ service: "data-plane", level: config.logLevel });
  const metrics = buildMetrics();
  const tracing = startTracing(config.tracing);
  const credentials = channelCredentials(config.grpcTls);
  let control = createClient(controlService(), config.controlPlaneAddr, {
    timeoutMs: config.controlTimeoutMs,
    metadata: bearer(config.controlPlaneToken),
    credentials,
    mapError: refusalIsOutage("control-plane", "DATA_PLANE_CONTROL_PLANE_TOKEN", log),
  });
  let ledger = createClient(ledgerService(), config.ledgerAddr, {
    timeoutMs: config.ledgerTimeoutMs,
    metadata: bearer(config.ledgerToken),
    credentials,
    mapError: refusalIsOutage("ledger", "DATA_PLANE_LEDGER_TOKEN", log),
  });
  if (tracing) {
    control = tracedClient(control, "gateway.control.v1.ControlService", tracing);
    ledger = tracedClient(ledger, "gateway.ledger.v1.LedgerService", tracing);
  }
  const keys = new KeyCache(
    async (keyHash) => {
      const r = await control.AuthenticateKey({ key_hash: keyHash });
      return r.found && r.key ? r.key : undefined;
    },
    {
      ttlMs: config.keyCacheTtlMs,
      maxStaleMs: config.keyCacheMaxStaleMs,
      negativeTtlMs: config.negativeCacheTtlMs,
      maxEntries: config.keyCacheMaxEntries,
    },
  );
  const catalog = new CatalogCache(
    {
      fetchCatalog: (known) => control.GetCatalog({ known_version: known }),
      fetchTrialPolicy: () => control.GetTrialPolicy({}),
    },
    log,
    config.catalogRefreshMs,
  );
  const nats: DataPlaneContext["nats"] = { current: undefined, js: undefined };
  const spool = new UsageSpool({
    dir: config.spoolDir,
    replicaId: config.replicaId,
    maxEvents: config.spoolMaxEvents,
    lockStaleMs: config.spoolLockStaleMs,
    log,
    skippedLines: metrics.spoolSkippedLines,
  });
  const leases = new LeaseManager({ acquire: (r) => ledger.AcquireLease(r), release: (r) => ledger.ReleaseLease(r) }, log, {
    holder: config.replicaId,
    chunkMinor: config.leaseChunkMinor,
    ttlMs: config.leaseTtlMs,
    idleMs: config.leaseIdleMs,
    maxOrgs: config.leaseMaxOrgs,
    unpublished: () => spool.size,
  });
  const publisher = new UsagePublisher(() => nats.js, spool, log, config.publishTimeoutMs, metrics, config.usageBatchEvents);
  const gauge = (name: string, help: string, value: () => number) =>
    new Gauge({
      name,
      help,
      registers: [metrics.registry],
      collect() {
        this.set(value());
      },
    });
  gauge("gateway_usage_spooled_events", "Usage events waiting in the local spool", () => spool.size);
  gauge("gateway_circuit_breakers_open", "Provider deployments cooling down after consecutive failures", () => ctx.breaker.openCount);
  gauge("gateway_key_cache_entries", "Cached key contexts", () => keys.size);
  const rateLimiter = new RateLimiter({ replicaId: config.replicaId, maxKeys: config.rateLimitMaxKeys });
  const contextChecker = config.contextPrecheck ? new ContextChecker() : undefined;
  const media = new MediaUrlChecker({ staticHosts: parseStaticHosts(config.mediaStaticHosts), timeoutMs: config.mediaDnsTimeoutMs });
  const ctx: DataPlaneContext = {
    config,
    log,
    metrics,
    control,
    ledger,
    keys,
    catalog,
    leases,
    publisher,
    refusals: new RefusalRecorder(publisher, config.refusalRecords, metrics.refusalRecords),
    upstream: new UpstreamClient({ connectionWait: metrics.upstreamConnectionWait, providers: () => catalog.current.providers, traced: tracing !== undefined }),
    rateLimiter,
    contextChecker,
    nats,
    tracing,
    breaker: new CircuitBreaker(config.breakerThreshold, config.breakerCooldownMs),
    mcp: new McpUpstreams({
      timeoutMs: config.mcp.timeoutMs,
      toolsTtlMs: config.mcp.toolsTtlMs,
      maxSessions: config.mcp.maxSessions,
      sessionIdleMs: config.mcp.sessionIdleMs,
      resolveCredential: config.resolveCredential,
      // The result bound, and room for the JSON-RPC envelope and an event stream's framing.
      maxAnswerBytes: config.mcp.maxResultBytes * 2 + 65_536,
      // The media URL rules (https, a name whose every address is public); loopback only by the development switch.
      checkUrl: async (url) => {
        const u = new URL(url);
        if (config.mcp.allowLoopback && u.protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(u.hostname)) return;
        await media.check("url", url);
      },
    }),
    media,
    videoJobs: undefined as unknown as VideoJobs,
    responses: new ResponseStore({ ...config.responses, timeoutMs: config.publishTimeoutMs, log }),
    pins: config.sessionPins.enabled ? new SessionPins({ ...config.sessionPins, replicas: config.responses.replicas, timeoutMs: config.publishTimeoutMs, maxWritesInFlight: 64, log }) : undefined,
  };
  ctx.videoJobs = new VideoJobs(ctx);
  return ctx;
}

/** Longest pause between two attempts to reach NATS, ms. */
const MAX_BACKOFF_MS = 5_000;

/**
 * Connects to NATS in the background (the data-plane serves from cache and spools usage while
 * NATS is away), subscribes to control-plane change events and evicts what they name. The client
 * rides out server restarts by itself; should it ever give up and close the connection (say,
 * after auth errors), a new one is made. Ends when `signal` aborts; abort before closing.
 */
export function connectNats(ctx: DataPlaneContext, signal: AbortSignal, onClosed: (p: Promise<void>) => void): void {
  const p = (async () => {
    for (let attempt = 0, first = true; !signal.aborted; first = false) {
      let nc: NatsConnection;
      try {
        nc = await connect({
          servers: ctx.config.natsUrl.split(",").map((s) => s.trim()),
          name: `data-plane ${ctx.config.replicaId}`,
          ...ctx.config.natsCredentials,
          ...natsTlsOptions(ctx.config.natsTls),
          inboxPrefix: INBOX_PREFIX["data-plane"],
          maxReconnectAttempts: -1,
          reconnectTimeWait: 500,
          ignoreAuthErrorAbort: true,
          timeout: 5_000,
          noAsyncTraces: true,
        });
      } catch (err) {
        const delayMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** attempt++);
        const refused = natsAuthProblem(err, ctx.config.natsCredentials);
        if (refused) ctx.log.error({ retry_in_ms: delayMs }, `${refused} (DATA_PLANE_NATS_USER, DATA_PLANE_NATS_PASSWORD); usage events go to the spool meanwhile`);
        else ctx.log.warn({ err, retry_in_ms: delayMs }, "NATS unreachable; usage events go to the spool meanwhile");
        await sleep(delayMs, undefined, { signal }).catch(() => undefined);
        continue;
      }
      attempt = 0;
      if (signal.aborted) {
        await nc.close().catch(() => undefined);
        return;
      }
      const err = await serveNats(ctx, nc, first);
      if (!signal.aborted) ctx.log.error({ err }, "NATS connection closed by the client; opening a new one");
    }
  })();
  onClosed(p);
}

/** Uses one connection until it closes; resolves with the error that closed it, if any. */
async function serveNats(ctx: DataPlaneContext, nc: NatsConnection, first: boolean): Promise<Error | void> {
  ctx.nats.current = nc;
  const signing = ctx.config.usageSigningKey;
  ctx.nats.js = new JetStreamPublish(nc, INBOX_PREFIX["data-plane"], signing ? (data) => signUsage(signing, data) : undefined);
  ctx.responses.attach(nc);
  ctx.pins?.attach(nc);
  ctx.log.info("connected to NATS");
  nc.subscribe(CONTROL_CHANGED_SUBJECT, {
    callback: (err, msg) => {
      if (err) return;
      const ev = decodeEvent(ControlChangedV1, msg.data);
      if (!ev) return;
      switch (ev.kind) {
        case "key":
          if (ev.key_hash) ctx.keys.evictHash(ev.key_hash);
          if (ev.id) ctx.keys.evictKeyId(ev.id);
          break;
        case "org":
          if (ev.id) ctx.keys.evictOrg(ev.id);
          break;
        case "catalog":
        case "trial_policy":
          void ctx.catalog.refresh().catch((e: unknown) => ctx.log.warn({ err: e }, "catalog refresh failed"));
          break;
      }
    },
  });
  nc.subscribe(RATE_LIMIT_GOSSIP_SUBJECT, {
    callback: (err, msg) => {
      if (err) return;
      const ev = decodeEvent(RateLimitGossipV1, msg.data);
      if (ev) ctx.rateLimiter.absorb(ev);
    },
  });
  const gossip = setInterval(() => {
    const m = ctx.rateLimiter.drainGossip();
    if (!m || nc.isClosed() || nc.isDraining()) return;
    try {
      nc.publish(RATE_LIMIT_GOSSIP_SUBJECT, encodeEvent({ version: 1, ...m }));
    } catch {
      // Reconnecting: the next round carries the cumulative counts anyway.
    }
  }, ctx.config.rateLimitGossipMs);
  gossip.unref();
  void ctx.publisher.replay();
  if (!first) {
    // A replacement connection may follow a long gap: change events may have been missed.
    ctx.keys.expireAll();
    void ctx.catalog.refresh().catch(() => undefined);
  }
  try {
    for await (const s of nc.status()) {
      if (s.type === "reconnect") {
        // Change events may have been missed while disconnected.
        ctx.keys.expireAll();
        void ctx.catalog.refresh().catch(() => undefined);
        void ctx.publisher.replay();
        // The server may have come back without the buckets (a fresh JetStream store).
        ctx.responses.attach(nc);
        ctx.pins?.attach(nc);
      }
    }
  } finally {
    clearInterval(gossip);
    ctx.responses.detach(nc);
    ctx.pins?.detach(nc);
    if (ctx.nats.current === nc) {
      ctx.nats.current = undefined;
      ctx.nats.js = undefined;
    }
  }
  return nc.closed();
}
