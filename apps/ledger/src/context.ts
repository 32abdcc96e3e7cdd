import type { NatsConnection } from "@nats-io/transport-node";
import { INBOX_PREFIX } from "@gateway/events";
import { connectNats } from "@gateway/nats";
import { createDb, createDbHealth, type DbHealth, type Kysely } from "@gateway/db";
import { Counter, Gauge, Histogram, createLogger, createMetricsRegistry, startTracing, type Logger, type Registry, type Tracing } from "@gateway/observability";
import type { LedgerConfig } from "./config.js";
import type { LedgerDb } from "./db/schema.js";
import { AppliedWatermark } from "./consumer/watermark.js";
import { StreamWatch, streamGauges } from "./consumer/stream-watch.js";
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";
import { FeedWatermark } from "./feed/watermark.js";

export interface LedgerMetrics {
  registry: Registry;
  usageEvents: Counter<"result">;
  /** Refusal records (`usage.v1.refused`) stored (applied) or already there (duplicate). */
  refusalRecords: Counter<"result">;
  applySeconds: Histogram;
  batchSize: Histogram;
  deadLetters: Counter<"reason">;
  /** Events costing more than their lease was ever granted (billed at the grant, kept as `capped`). */
  overLease: Counter;
  /** Charged events applied without a cost check (LEDGER_ACCEPT_UNSIGNED_USAGE: a data-plane before catalog versions). */
  unchecked: Counter;
  attemptCost: Counter<"provider" | "payer">;
  attempts: Counter<"provider" | "outcome">;
  leasesGranted: Counter;
  leasesSettled: Counter<"how">;
  leaseRefusals: Counter<"reason">;
  topUps: Counter;
  /** Adjustments made (refunds, credit notes, promotional grants and expiries, credit limits), by kind. */
  adjustments: Counter<"kind">;
}

/** Every dependency of the ledger, built once. */
export interface LedgerContext {
  config: LedgerConfig;
  log: Logger;
  db: Kysely<LedgerDb>;
  /** Whether Postgres answers (probed every second on a connection of its own); drives readiness. */
  dbHealth: DbHealth;
  metrics: LedgerMetrics;
  nats: NatsConnection | undefined;
  /** False while the NATS connection is down and the client is reconnecting; drives readiness. */
  natsConnected: boolean;
  /** JetStream management on `nats`, once connected. */
  jsm: JetStreamManager | undefined;
  /** How far usage has provably been applied; gates the release of closed leases' holds. */
  watermark: AppliedWatermark;
  /** The streams, their copies and the NATS nodes' stores, read for the metrics. */
  streamWatch: StreamWatch;
  /** Called after a top-up commits (wakes the announcer and the alert watch). */
  onTopUp?: (orgId?: string) => void;
  /** Called after a usage batch commits, with the organizations it spent from (the alert watch). */
  onApplied?: (orgIds: Iterable<string>) => void;
  /** Present only when spans are exported (OTEL_EXPORTER_OTLP_ENDPOINT). */
  tracing: Tracing | undefined;
  /** How far the billing feed may be served (feed/watermark.ts). */
  feedWatermark: FeedWatermark;
  /** Aborted when the ledger stops: long reads (a feed that follows) end at once. */
  closing: AbortController;
}

export interface LedgerOverrides {
  log?: Logger;
}

export function createContext(config: LedgerConfig, overrides: LedgerOverrides = {}): LedgerContext {
  const registry = createMetricsRegistry("ledger");
  const log = overrides.log ?? createLogger({ service: "ledger", level: config.logLevel });
  const db = createDb<LedgerDb>({
    url: config.databaseUrl,
    schema: config.dbSchema,
    poolMax: config.dbPoolMax,
    startupOptions: config.dbStartupOptions,
    onConnectionError: (err) => log.warn({ err }, "pooled Postgres connection lost"),
  });
  const ctx: LedgerContext = {
    config,
    log,
    db,
    dbHealth: createDbHealth({
      url: config.databaseUrl,
      onChange: (healthy, err) => (healthy ? log.info("Postgres reachable") : log.warn({ err }, "Postgres unreachable; not ready")),
    }),
    nats: undefined,
    natsConnected: false,
    jsm: undefined,
    watermark: new AppliedWatermark(() => ctx.jsm, config.consumerDurable),
    streamWatch: new StreamWatch(() => ctx.jsm, { durable: config.consumerDurable, streams: config.streams, monitorUrls: config.natsMonitorUrls, intervalMs: config.streamWatchIntervalMs }, log),
    tracing: startTracing(config.tracing),
    feedWatermark: new FeedWatermark(db, config.feedWatermarkMs, log),
    closing: new AbortController(),
    metrics: {
      registry,
      usageEvents: new Counter({ name: "ledger_usage_events_total", help: "Usage events by result", labelNames: ["result"], registers: [registry] }),
      refusalRecords: new Counter({
        name: "ledger_refusal_records_total",
        help: "Refusal records (requests refused before routing) by result: applied, duplicate",
        labelNames: ["result"],
        registers: [registry],
      }),
      applySeconds: new Histogram({
        name: "ledger_apply_duration_seconds",
        help: "Time to apply one batch of usage events",
        buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
        registers: [registry],
      }),
      batchSize: new Histogram({ name: "ledger_apply_batch_events", help: "Usage events per applied batch", buckets: [1, 10, 50, 100, 250, 500, 1000], registers: [registry] }),
      attemptCost: new Counter({
        name: "ledger_attempt_provider_cost_minor_total",
        help: "What providers charge the operator for the upstream attempts applied, minor units, by who pays: caller (billed), operator (absorbed), none",
        labelNames: ["provider", "payer"],
        registers: [registry],
      }),
      attempts: new Counter({ name: "ledger_upstream_attempts_total", help: "Upstream attempts applied, by provider and outcome", labelNames: ["provider", "outcome"], registers: [registry] }),
      deadLetters: new Counter({ name: "ledger_dead_letters_total", help: "Usage events that can never be applied, kept in dead_letters", labelNames: ["reason"], registers: [registry] }),
      overLease: new Counter({
        name: "ledger_usage_over_lease_total",
        help: "Usage events that cost more than all the credit their lease was ever granted: billed at the grant (a provider's overrun, or a forgery)",
        registers: [registry],
      }),
      unchecked: new Counter({
        name: "ledger_usage_unchecked_total",
        help: "Charged usage events applied without recomputing their cost (no catalog version; accepted while LEDGER_ACCEPT_UNSIGNED_USAGE is on)",
        registers: [registry],
      }),
      leasesGranted: new Counter({ name: "ledger_leases_granted_minor_total", help: "Credit granted to leases, minor units", registers: [registry] }),
      leaseRefusals: new Counter({ name: "ledger_lease_refusals_total", help: "Lease requests refused: insufficient_credits or budget_exceeded", labelNames: ["reason"], registers: [registry] }),
      leasesSettled: new Counter({
        name: "ledger_leases_settled_total",
        help: "Closed leases whose remaining hold was released after the consumer caught up",
        labelNames: ["how"],
        registers: [registry],
      }),
      topUps: new Counter({ name: "ledger_top_ups_total", help: "Top-ups applied", registers: [registry] }),
      adjustments: new Counter({
        name: "ledger_adjustments_total",
        help: "Adjustments made: refunds, credit notes, promotional credit granted and expired, credit limits set",
        labelNames: ["kind"],
        registers: [registry],
      }),
    },
  };
  new Gauge({
    name: "ledger_consumer_pending_events",
    help: "Usage events in the stream not yet acknowledged by the durable (at the last watermark refresh)",
    registers: [registry],
    collect() {
      this.set(ctx.watermark.pending);
    },
  });
  new Gauge({
    name: "ledger_applied_through_lag_seconds",
    help: "Now minus the instant before which every published usage event is applied",
    registers: [registry],
    collect() {
      const t = ctx.watermark.appliedThrough;
      if (t > 0) this.set(Math.max(0, (Date.now() - t) / 1000));
    },
  });
  streamGauges(registry, ctx.streamWatch);
  return ctx;
}

/** NATS for the ledger: `ctx.nats` and `ctx.natsConnected` follow the connection (@gateway/nats). */
export function connectServiceNats(ctx: LedgerContext, signal: AbortSignal, onReplaced: (nc: NatsConnection) => Promise<void>): Promise<NatsConnection> {
  return connectNats({
    servers: ctx.config.natsUrl,
    name: "ledger",
    credentials: ctx.config.natsCredentials,
    tls: ctx.config.natsTls,
    inboxPrefix: INBOX_PREFIX.ledger,
    log: ctx.log,
    signal,
    // JetStream management for every connection, before it is used (retried with the connection).
    prepare: async (nc) => {
      ctx.jsm = await jetstreamManager(nc);
    },
    onState: (nc, connected) => {
      ctx.nats = nc;
      ctx.natsConnected = connected;
    },
    onReplaced,
  });
}
