import { createServer, type Server } from "node:http";
import type { DataPlaneConfig } from "./config.js";
import { connectNats, createContext, type ContextOverrides, type DataPlaneContext } from "./context.js";
import { closeNats } from "@gateway/nats";
import { createApp } from "./app.js";
import { isResponsesUpgrade, responsesSockets } from "./routes/responses-websocket.js";

export { loadConfig, type DataPlaneConfig } from "./config.js";
export type { DataPlaneContext } from "./context.js";
/** For tests that run it against a real ledger (tests/integration). */
export { LeaseManager, type BudgetClaim, type LeaseLedger, type Reservation } from "./credits/lease-manager.js";

export interface DataPlane {
  readonly ctx: DataPlaneContext;
  /** Bound HTTP port (valid after start). */
  readonly port: number;
  /** Bound port of the metrics listener (DATA_PLANE_METRICS_PORT; valid after start), undefined without one. */
  readonly metricsPort: number | undefined;
  readonly url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

/** Builds the data-plane; start() loads the catalog, connects NATS and listens. */
export function createDataPlane(config: DataPlaneConfig, overrides: ContextOverrides = {}): DataPlane {
  const ctx = createContext(config, overrides);
  let server: Server | undefined;
  let port = config.port;
  let metricsServer: Server | undefined;
  let natsLoop: Promise<void> | undefined;
  const natsStop = new AbortController();
  /** Aborts when the shutdown's stream drain ended: open streams end with their error event. */
  const streamsEnd = new AbortController();
  ctx.shutdown = streamsEnd.signal;
  /** Set on stop(): readiness is false from then on, while the replica goes on serving. */
  let stopping = false;
  const isReady = () => !stopping && ctx.catalog.ready && server?.listening === true;
  const app = createApp(ctx, isReady, () => stopping);
  /** The Responses API's WebSocket mode: its connections, outside the HTTP server's (routes/responses-websocket.ts). */
  const sockets = responsesSockets(ctx);

  return {
    ctx,
    get port() {
      return port;
    },
    get url() {
      return `http://${config.host}:${port}`;
    },
    get metricsPort() {
      const a = metricsServer?.address();
      return typeof a === "object" && a ? a.port : undefined;
    },
    async start() {
      if (config.metricsPort !== undefined) metricsServer = await listenForMetrics(ctx, config.host, config.metricsPort);
      await ctx.contextChecker?.load();
      connectNats(ctx, natsStop.signal, (p) => (natsLoop = p));
      await ctx.catalog.start();
      ctx.leases.start();
      await ctx.publisher.start();
      ctx.videoJobs.start();
      // Slow clients cannot hold a socket: headers and the request must arrive in time (checked
      // every second, not Node's default 30 s); responses may stream for as long as they need.
      const s = createServer(
        {
          headersTimeout: config.headersTimeoutMs,
          requestTimeout: Math.max(config.headersTimeoutMs, 60_000),
          keepAliveTimeout: config.keepAliveTimeoutMs,
          connectionsCheckingInterval: 1_000,
          // Only a WebSocket upgrade of /v1/responses is one; any other Upgrade header (h2c) is a request.
          shouldUpgradeCallback: isResponsesUpgrade,
        },
        app,
      );
      s.on("upgrade", sockets.upgrade);
      await new Promise<void>((resolve, reject) => {
        s.once("error", reject);
        s.listen(config.port, config.host, config.listenBacklog, () => resolve());
      });
      server = s;
      const a = server.address();
      port = typeof a === "object" && a ? a.port : config.port;
      ctx.log.info({ url: `http://${config.host}:${port}` }, "data-plane listening");
      if (config.responses.ownSecret) {
        ctx.log.warn("DATA_PLANE_RESPONSES_SECRET is unset: stored Responses are sealed with a key of this process's own, which no other replica (nor this one after a restart) can open");
      }
    },
    /**
     * A rollout that cuts nothing (docs/operations.md, "Stopping a data-plane"): readiness goes false
     * at once while everything is still served, new connections included, for the pause (the
     * Service's endpoints drop the replica meanwhile); then the listener closes, idle connections
     * with it; open requests and streams go on for the stream drain window, after which every open
     * stream ends with its error event (billed for what it did) and the last connections close. A
     * WebSocket connection finishes its turn and closes with 1001.
     */
    async stop() {
      stopping = true;
      if (server) {
        const s = server;
        if (config.shutdownPauseMs > 0) await new Promise((r) => setTimeout(r, config.shutdownPauseMs));
        const closed = new Promise<void>((resolve) => s.close(() => resolve()));
        s.closeIdleConnections();
        // WebSocket connections: an idle one closes (1001) now, one in a turn when its turn has ended.
        sockets.stop();
        // Keep-alive connections that go idle during the drain are closed as they do.
        const idle = setInterval(() => s.closeIdleConnections(), 250);
        let drained: NodeJS.Timeout | undefined;
        await Promise.race([closed, new Promise<void>((r) => (drained = setTimeout(r, config.shutdownStreamDrainMs)))]);
        clearTimeout(drained);
        streamsEnd.abort();
        // The streams' last frames and usage events, then whatever is left is cut.
        const cut = setTimeout(() => {
          s.closeAllConnections();
          sockets.terminate();
        }, 5_000);
        await closed;
        clearTimeout(cut);
        clearInterval(idle);
      }
      ctx.catalog.stop();
      await ctx.videoJobs.stop();
      // Replays while NATS is away for up to the grace period; what is left stays on disk. Then the
      // leases: released only when nothing is left unpublished (otherwise they expire at the ledger).
      await ctx.publisher.stop(config.shutdownReplayMs);
      await ctx.leases.stop().catch(() => undefined);
      natsStop.abort();
      await closeNats(ctx.nats.current);
      await natsLoop;
      ctx.control.close();
      ctx.ledger.close();
      await ctx.upstream.close();
      ctx.mcp.close();
      await ctx.tracing?.shutdown();
      // Last, so the stop itself is scraped.
      if (metricsServer) await new Promise((r) => metricsServer!.close(r));
    },
  };
}

/** A listener that answers GET /metrics and nothing else (404), apart from the API's port. */
async function listenForMetrics(ctx: DataPlaneContext, host: string, port: number): Promise<Server> {
  const s = createServer((req, res) => {
    if (req.method !== "GET" || req.url?.split("?")[0] !== "/metrics") {
      res.writeHead(404).end();
      return;
    }
    ctx.metrics.registry.metrics().then(
      (text) => res.writeHead(200, { "content-type": ctx.metrics.registry.contentType }).end(text),
      (err: unknown) => {
        ctx.log.error({ err }, "metrics not collected");
        res.writeHead(500).end();
      },
    );
  });
  await new Promise<void>((resolve, reject) => {
    s.once("error", reject);
    s.listen(port, host, () => resolve());
  });
  return s;
}
