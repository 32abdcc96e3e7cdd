import { connect, type NatsConnection } from "@nats-io/transport-node";
import { createDb, type Kysely } from "@gateway/db";
import { CONTROL_CHANGED_SUBJECT, encodeEvent, type ControlChangedV1 } from "@gateway/events";
import { Counter, createLogger, createMetricsRegistry, type Logger, type Registry } from "@gateway/observability";
import type { ControlPlaneConfig } from "./config.js";
import type { ControlDb } from "./db/schema.js";

/** Every dependency of the control-plane, built once. */
export interface ControlContext {
  config: ControlPlaneConfig;
  log: Logger;
  db: Kysely<ControlDb>;
  registry: Registry;
  rpcTotal: Counter<"method" | "code">;
  nats: NatsConnection | undefined;
  /** Announces a committed change; best effort (the data-plane's TTLs are the backstop). */
  publishChange(ev: Omit<ControlChangedV1, "version">): void;
}

export interface ControlOverrides {
  log?: Logger;
}

export function createContext(config: ControlPlaneConfig, overrides: ControlOverrides = {}): ControlContext {
  const registry = createMetricsRegistry("control-plane");
  const log = overrides.log ?? createLogger({ service: "control-plane", level: config.logLevel });
  const ctx: ControlContext = {
    config,
    log,
    db: createDb<ControlDb>({ url: config.databaseUrl, schema: config.dbSchema, poolMax: config.dbPoolMax }),
    registry,
    rpcTotal: new Counter({ name: "control_rpc_total", help: "RPCs by method and result code", labelNames: ["method", "code"], registers: [registry] }),
    nats: undefined,
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

export async function connectNats(ctx: ControlContext): Promise<NatsConnection> {
  const nc = await connect({ servers: ctx.config.natsUrl, name: "control-plane", maxReconnectAttempts: -1, reconnectTimeWait: 500, timeout: 5_000 });
  ctx.nats = nc;
  return nc;
}
