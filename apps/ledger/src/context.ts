import { setTimeout as sleep } from "node:timers/promises";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { createDb, createDbHealth, isConnectionError, type DbHealth, type Kysely } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { Counter, Gauge, Histogram, createLogger, createMetricsRegistry, type Logger, type Registry } from "@gateway/observability";
import type { LedgerConfig } from "./config.js";
import type { LedgerDb } from "./db/schema.js";
import { AppliedWatermark } from "./consumer/watermark.js";
import { jetstreamManager, type JetStreamManager } from "@nats-io/jetstream";

export interface LedgerMetrics {
  registry: Registry;
  usageEvents: Counter<"result">;
  applySeconds: Histogram;
  batchSize: Histogram;
  deadLetters: Counter<"reason">;
  leasesGranted: Counter;
  leasesSettled: Counter<"how">;
  topUps: Counter;
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
  /** Called after a top-up commits (wakes the announcer). */
  onTopUp?: () => void;
}

export interface LedgerOverrides {
  log?: Logger;
}

export function createContext(config: LedgerConfig, overrides: LedgerOverrides = {}): LedgerContext {
  const registry = createMetricsRegistry("ledger");
  const log = overrides.log ?? createLogger({ service: "ledger", level: config.logLevel });
  const ctx: LedgerContext = {
    config,
    log,
    db: createDb<LedgerDb>({
      url: config.databaseUrl,
      schema: config.dbSchema,
      poolMax: config.dbPoolMax,
      onConnectionError: (err) => log.warn({ err }, "pooled Postgres connection lost"),
    }),
    dbHealth: createDbHealth({
      url: config.databaseUrl,
      onChange: (healthy, err) => (healthy ? log.info("Postgres reachable") : log.warn({ err }, "Postgres unreachable; not ready")),
    }),
    nats: undefined,
    natsConnected: false,
    jsm: undefined,
    watermark: new AppliedWatermark(() => ctx.jsm, config.consumerDurable),
    metrics: {
      registry,
      usageEvents: new Counter({ name: "ledger_usage_events_total", help: "Usage events by result", labelNames: ["result"], registers: [registry] }),
      applySeconds: new Histogram({ name: "ledger_apply_duration_seconds", help: "Time to apply one batch of usage events", buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5], registers: [registry] }),
      batchSize: new Histogram({ name: "ledger_apply_batch_events", help: "Usage events per applied batch", buckets: [1, 10, 50, 100, 250, 500, 1000], registers: [registry] }),
      deadLetters: new Counter({ name: "ledger_dead_letters_total", help: "Usage events that can never be applied, kept in dead_letters", labelNames: ["reason"], registers: [registry] }),
      leasesGranted: new Counter({ name: "ledger_leases_granted_minor_total", help: "Credit granted to leases, minor units", registers: [registry] }),
      leasesSettled: new Counter({ name: "ledger_leases_settled_total", help: "Closed leases whose remaining hold was released after the consumer caught up", labelNames: ["how"], registers: [registry] }),
      topUps: new Counter({ name: "ledger_top_ups_total", help: "Top-ups applied", registers: [registry] }),
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
  return ctx;
}

/**
 * An RPC that failed because Postgres is away answers UNAVAILABLE, not INTERNAL: callers retry, and
 * the data-plane keeps serving known keys from its cache (it does so only for UNAVAILABLE).
 */
export function unavailableWhenDbDown(err: unknown): GatewayError | undefined {
  return isConnectionError(err) ? new GatewayError("service_unavailable", "The database is unreachable; retry shortly.") : undefined;
}

/** Longest pause between two attempts to reach a dependency, ms. */
const MAX_BACKOFF_MS = 5_000;

/**
 * Runs `attempt` until it succeeds, waiting longer after each failure (up to 5 s) and logging it;
 * rejects only when `signal` aborts (the ledger is stopping). A dependency that is down when the
 * ledger starts makes it wait, not-ready, instead of exit.
 */
export async function retrying<T>(ctx: LedgerContext, what: string, signal: AbortSignal, attempt: () => Promise<T>): Promise<T> {
  for (let n = 0; ; n++) {
    signal.throwIfAborted();
    try {
      return await attempt();
    } catch (err) {
      if (signal.aborted) throw err;
      const delayMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** n);
      ctx.log.warn({ err, retry_in_ms: delayMs }, `${what} failed; retrying`);
      await sleep(delayMs, undefined, { signal });
    }
  }
}

/**
 * Connects to NATS, waiting (with backoff) while it or its JetStream is unreachable, and keeps
 * `ctx.nats`, `ctx.jsm` and `ctx.natsConnected` current. The client rides out server restarts by
 * itself (it never stops reconnecting); should it ever give up and close the connection anyway
 * (say, after auth errors), a new connection is made and handed to `onReplaced`, so nothing is left
 * on a dead one. Stops when `signal` aborts; abort before closing the connection.
 */
export async function connectNats(ctx: LedgerContext, signal: AbortSignal, onReplaced: (nc: NatsConnection) => Promise<void>): Promise<NatsConnection> {
  const dial = () =>
    retrying(ctx, "NATS connect", signal, async () => {
      const nc = await connect({ servers: ctx.config.natsUrl.split(",").map((s) => s.trim()), name: "ledger", maxReconnectAttempts: -1, reconnectTimeWait: 500, ignoreAuthErrorAbort: true, timeout: 5_000 });
      try {
        signal.throwIfAborted();
        return { nc, jsm: await jetstreamManager(nc) };
      } catch (err) {
        await nc.close().catch(() => undefined);
        throw err;
      }
    });
  const adopt = ({ nc, jsm }: { nc: NatsConnection; jsm: JetStreamManager }) => {
    ctx.nats = nc;
    ctx.jsm = jsm;
    ctx.natsConnected = true;
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === "disconnect") {
          ctx.natsConnected = false;
          ctx.log.warn("NATS disconnected; not ready while the client reconnects");
        } else if (s.type === "reconnect") {
          ctx.natsConnected = true;
          ctx.log.info("NATS reconnected");
        }
      }
    })().catch(() => undefined);
    void nc.closed().then(async (err) => {
      ctx.natsConnected = false;
      if (signal.aborted) return;
      ctx.log.error({ err }, "NATS connection closed by the client; opening a new one");
      try {
        const next = await dial();
        adopt(next);
        await onReplaced(next.nc);
      } catch (e) {
        if (!signal.aborted) ctx.log.error({ err: e }, "NATS connection could not be replaced");
      }
    });
  };
  const first = await dial();
  adopt(first);
  return first.nc;
}

/**
 * Drains the connection (finishing what is in flight), or closes it when the drain does not finish
 * within 2 s: a drain waits for the server, and during an outage it would wait forever.
 */
export async function closeNats(nc: NatsConnection | undefined): Promise<void> {
  if (!nc || nc.isClosed()) return;
  const drained = nc.drain().then(() => true, () => false);
  if (!(await Promise.race([drained, sleep(2_000, false, { ref: false })]))) await nc.close().catch(() => undefined);
}
