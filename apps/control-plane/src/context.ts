import type { NatsConnection } from "@nats-io/transport-node";
import { connectNats } from "@gateway/nats";
import { createDb, createDbHealth, type DbHealth, type Kysely } from "@gateway/db";
import { CONTROL_CHANGED_SUBJECT, INBOX_PREFIX, encodeEvent, type ControlChangedV1 } from "@gateway/events";
import { Counter, createLogger, createMetricsRegistry, startTracing, type Logger, type Registry, type Tracing } from "@gateway/observability";
import type { ControlPlaneConfig } from "./config.js";
import type { ControlDb } from "./db/schema.js";
import type { Resolve } from "@gateway/egress";
import { SecretSealer } from "./alerts/secrets.js";
import { WebhookUrlPolicy } from "./alerts/webhook-url.js";

/** Every dependency of the control-plane, built once. */
export interface ControlContext {
  config: ControlPlaneConfig;
  log: Logger;
  db: Kysely<ControlDb>;
  /** Whether Postgres answers (probed every second on a connection of its own); drives readiness. */
  dbHealth: DbHealth;
  registry: Registry;
  rpcTotal: Counter<"method" | "code">;
  nats: NatsConnection | undefined;
  /** False while the NATS connection is down and the client is reconnecting; drives readiness. */
  natsConnected: boolean;
  /** Announces a committed change; best effort (the data-plane's TTLs are the backstop). */
  publishChange(ev: Omit<ControlChangedV1, "version">): void;
  /** Present only when spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT). */
  tracing: Tracing | undefined;
  /** Seals and opens webhook signing secrets; undefined without CONTROL_PLANE_SECRETS_KEY (no webhook can be set). */
  secrets: SecretSealer | undefined;
  /** The address rules of alert webhooks, at set time and at every attempt. */
  webhookUrls: WebhookUrlPolicy;
}

export interface ControlOverrides {
  log?: Logger;
  /** How webhook hosts are resolved (tests: a name that resolves elsewhere after it was set). */
  resolve?: Resolve;
}

export function createContext(config: ControlPlaneConfig, overrides: ControlOverrides = {}): ControlContext {
  const registry = createMetricsRegistry("control-plane");
  const log = overrides.log ?? createLogger({ service: "control-plane", level: config.logLevel });
  const ctx: ControlContext = {
    config,
    log,
    db: createDb<ControlDb>({
      url: config.databaseUrl,
      schema: config.dbSchema,
      poolMax: config.dbPoolMax,
      startupOptions: config.dbStartupOptions,
      onConnectionError: (err) => log.warn({ err }, "pooled Postgres connection lost"),
    }),
    dbHealth: createDbHealth({
      url: config.databaseUrl,
      onChange: (healthy, err) => (healthy ? log.info("Postgres reachable") : log.warn({ err }, "Postgres unreachable; not ready")),
    }),
    registry,
    rpcTotal: new Counter({ name: "control_rpc_total", help: "RPCs by method and result code", labelNames: ["method", "code"], registers: [registry] }),
    nats: undefined,
    natsConnected: false,
    tracing: startTracing(config.tracing),
    secrets: config.secretsKey ? new SecretSealer(config.secretsKey) : undefined,
    webhookUrls: new WebhookUrlPolicy({ allowHosts: config.webhooks.allowHosts, timeoutMs: config.webhooks.timeoutMs, resolve: overrides.resolve }),
    publishChange(ev) {
      try {
        ctx.nats?.publish(CONTROL_CHANGED_SUBJECT, encodeEvent({ version: 1, ...ev }));
      } catch (err) {
        log.warn({ err, kind: ev.kind }, "change event not published");
      }
    },
  };
  return ctx;
}

/** NATS for the control-plane: `ctx.nats` and `ctx.natsConnected` follow the connection (@gateway/nats). */
export function connectServiceNats(ctx: ControlContext, signal: AbortSignal, onReplaced: (nc: NatsConnection) => Promise<void>): Promise<NatsConnection> {
  return connectNats({
    servers: ctx.config.natsUrl,
    name: "control-plane",
    credentials: ctx.config.natsCredentials,
    tls: ctx.config.natsTls,
    inboxPrefix: INBOX_PREFIX["control-plane"],
    log: ctx.log,
    signal,
    onState: (nc, connected) => {
      ctx.nats = nc;
      ctx.natsConnected = connected;
    },
    onReplaced,
  });
}
