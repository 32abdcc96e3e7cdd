import { createServer, type Server } from "node:http";
import { pino, destination as pinoDestination, type Logger, type LoggerOptions } from "pino";
import { Registry, collectDefaultMetrics } from "prom-client";

export type { Logger };
export { Registry, Counter, Gauge, Histogram } from "prom-client";

/** Paths pino blanks out wherever they appear in a log line: secrets never reach the logs. */
export const REDACT_PATHS = [
  "req.headers.authorization",
  'req.headers["x-api-key"]',
  "headers.authorization",
  'headers["x-api-key"]',
  "authorization",
  "secret",
  "*.secret",
  "api_key",
  "*.api_key",
  "admin_token",
  "password",
  "*.password",
  "pass",
  "*.pass",
];

export interface LoggerConfig {
  service: string;
  level: string;
  /** Destination stream (tests pass a buffer). Defaults to stdout. */
  destination?: NodeJS.WritableStream;
}

/** JSON logger with the service name on every line and secrets redacted. */
export function createLogger({ service, level, destination }: LoggerConfig): Logger {
  const options: LoggerOptions = {
    level,
    base: { service },
    redact: { paths: REDACT_PATHS, censor: "[redacted]" },
    timestamp: pino.stdTimeFunctions.isoTime,
    formatters: { level: (label) => ({ level: label }) },
  };
  // Asynchronous stdout: a log line must not cost the request path a blocking write syscall.
  return pino(options, (destination as never) ?? pinoDestination({ dest: 1, sync: false }));
}

/** A metrics registry per service instance (tests run several services in one process). */
export function createMetricsRegistry(service: string, defaults = true): Registry {
  const registry = new Registry();
  registry.setDefaultLabels({ service });
  if (defaults) collectDefaultMetrics({ register: registry });
  return registry;
}

export interface OpsServerOptions {
  host: string;
  port: number;
  registry: Registry;
  /** Readiness: true when the service can do its work (dependencies connected). */
  ready: () => boolean;
}

/** Small HTTP server for gRPC services: /healthz, /readyz and /metrics. */
export async function startOpsServer(opts: OpsServerOptions): Promise<{ server: Server; port: number; close: () => Promise<void> }> {
  const server = createServer((req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz") {
      res.writeHead(200, { "content-type": "application/json" }).end('{"status":"ok"}');
    } else if (path === "/readyz") {
      const ok = opts.ready();
      res.writeHead(ok ? 200 : 503, { "content-type": "application/json" }).end(JSON.stringify({ status: ok ? "ready" : "not_ready" }));
    } else if (path === "/metrics") {
      opts.registry.metrics().then(
        (body) => res.writeHead(200, { "content-type": opts.registry.contentType }).end(body),
        () => res.writeHead(500).end(),
      );
    } else {
      res.writeHead(404, { "content-type": "application/json" }).end('{"error":{"message":"not found","code":"not_found"}}');
    }
  });
  server.requestTimeout = 10_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(opts.port, opts.host, () => resolve());
  });
  const address = server.address();
  const port = typeof address === "object" && address ? address.port : opts.port;
  return {
    server,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
export * from "./tracing.js";
