import { connect, type NatsConnection } from "@nats-io/transport-node";
import { createDb, type Kysely } from "@gateway/db";
import { Counter, Histogram, createLogger, createMetricsRegistry, type Logger, type Registry } from "@gateway/observability";
import type { LedgerConfig } from "./config.js";
import type { LedgerDb } from "./db/schema.js";

export interface LedgerMetrics {
  registry: Registry;
  usageEvents: Counter<"result">;
  applySeconds: Histogram;
  leasesGranted: Counter;
  topUps: Counter;
}

/** Every dependency of the ledger, built once. */
export interface LedgerContext {
  config: LedgerConfig;
  log: Logger;
  db: Kysely<LedgerDb>;
  metrics: LedgerMetrics;
  nats: NatsConnection | undefined;
  /** Called after a top-up commits (wakes the announcer). */
  onTopUp?: () => void;
}

export interface LedgerOverrides {
  log?: Logger;
}

export function createContext(config: LedgerConfig, overrides: LedgerOverrides = {}): LedgerContext {
  const registry = createMetricsRegistry("ledger");
  return {
    config,
    log: overrides.log ?? createLogger({ service: "ledger", level: config.logLevel }),
    db: createDb<LedgerDb>({ url: config.databaseUrl, schema: config.dbSchema, poolMax: config.dbPoolMax }),
    nats: undefined,
    metrics: {
      registry,
      usageEvents: new Counter({ name: "ledger_usage_events_total", help: "Usage events by result", labelNames: ["result"], registers: [registry] }),
      applySeconds: new Histogram({ name: "ledger_apply_duration_seconds", help: "Time to apply one usage event", buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1], registers: [registry] }),
      leasesGranted: new Counter({ name: "ledger_leases_granted_minor_total", help: "Credit granted to leases, minor units", registers: [registry] }),
      topUps: new Counter({ name: "ledger_top_ups_total", help: "Top-ups applied", registers: [registry] }),
    },
  };
}

export async function connectNats(ctx: LedgerContext): Promise<NatsConnection> {
  const nc = await connect({ servers: ctx.config.natsUrl, name: "ledger", maxReconnectAttempts: -1, reconnectTimeWait: 500, timeout: 5_000 });
  ctx.nats = nc;
  return nc;
}
