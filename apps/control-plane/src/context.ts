import { setTimeout as sleep } from "node:timers/promises";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { createDb, createDbHealth, isConnectionError, type DbHealth, type Kysely } from "@gateway/db";
import { GatewayError } from "@gateway/errors";
import { CONTROL_CHANGED_SUBJECT, encodeEvent, type ControlChangedV1 } from "@gateway/events";
import { Counter, createLogger, createMetricsRegistry, type Logger, type Registry } from "@gateway/observability";
import type { ControlPlaneConfig } from "./config.js";
import type { ControlDb } from "./db/schema.js";

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
    db: createDb<ControlDb>({
      url: config.databaseUrl,
      schema: config.dbSchema,
      poolMax: config.dbPoolMax,
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
 * rejects only when `signal` aborts (the service is stopping). A dependency that is down when the
 * service starts makes it wait, not-ready, instead of exit.
 */
export async function retrying<T>(ctx: ControlContext, what: string, signal: AbortSignal, attempt: () => Promise<T>): Promise<T> {
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
 * Connects to NATS, waiting (with backoff) while it is unreachable, and keeps `ctx.nats` and
 * `ctx.natsConnected` current. The client rides out server restarts by itself (it never stops
 * reconnecting); should it ever give up and close the connection anyway (say, after auth errors),
 * a new connection is made and handed to `onReplaced`, so nothing is left on a dead one. Stops when
 * `signal` aborts; abort before draining the connection.
 */
export async function connectNats(ctx: ControlContext, signal: AbortSignal, onReplaced: (nc: NatsConnection) => Promise<void>): Promise<NatsConnection> {
  const dial = () =>
    retrying(ctx, "NATS connect", signal, async () => {
      const nc = await connect({ servers: ctx.config.natsUrl.split(",").map((s) => s.trim()), name: "control-plane", maxReconnectAttempts: -1, reconnectTimeWait: 500, ignoreAuthErrorAbort: true, timeout: 5_000 });
      if (signal.aborted) {
        await nc.close();
        signal.throwIfAborted();
      }
      return nc;
    });
  const adopt = (nc: NatsConnection) => {
    ctx.nats = nc;
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
        await onReplaced(next);
      } catch (e) {
        if (!signal.aborted) ctx.log.error({ err: e }, "NATS connection could not be replaced");
      }
    });
  };
  const nc = await dial();
  adopt(nc);
  return nc;
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
