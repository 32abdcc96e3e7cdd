import pg from "pg";
import { GatewayError } from "@gateway/errors";

const NETWORK_CODES = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EHOSTUNREACH", "ENETUNREACH", "ENOTFOUND", "EAI_AGAIN", "EPIPE"]);

/**
 * An RPC that failed because Postgres is away answers UNAVAILABLE, not INTERNAL: callers retry, and
 * the data-plane keeps serving known keys from its cache (it does so only for UNAVAILABLE).
 */
export function unavailableWhenDbDown(err: unknown): GatewayError | undefined {
  return isConnectionError(err) ? new GatewayError("service_unavailable", "The database is unreachable; retry shortly.") : undefined;
}

/**
 * Whether an error means "Postgres is not reachable right now" (restarting, starting up, network
 * gone) rather than a bug or a bad statement: only these are worth waiting out.
 */
export function isConnectionError(err: unknown): boolean {
  if (err instanceof AggregateError && err.errors.some(isConnectionError)) return true;
  if (err instanceof Error && err.cause !== undefined && err.cause !== err && isConnectionError(err.cause)) return true;
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === "string") {
    if (NETWORK_CODES.has(code)) return true;
    // SQLSTATE 08 connection exception; 57P01-03 shut down / crashed / starting up; 53300 too many connections.
    if (code.startsWith("08") || code === "57P01" || code === "57P02" || code === "57P03" || code === "53300") return true;
  }
  const message = err instanceof Error ? err.message : "";
  return /Connection terminated|timeout exceeded when trying to connect|not queryable|the database system is (starting up|shutting down|in recovery mode)/i.test(message);
}

export interface DbHealthOptions {
  url: string;
  /** Time between probes, ms (default 1 000). */
  intervalMs?: number;
  /** Deadline of one probe (connect and `SELECT 1`), ms (default 2 000). */
  timeoutMs?: number;
  /** Told when the answer changes, with the error that made it unhealthy (log it). */
  onChange?: (healthy: boolean, err?: unknown) => void;
}

/** Whether Postgres answers, as last probed. */
export interface DbHealth {
  /** True when the last probe answered within its deadline; false before the first one. */
  readonly healthy: boolean;
  /** Probes now (joining a probe already running) and returns the answer. */
  check(): Promise<boolean>;
  /** Probes every `intervalMs` until stop(); the timer does not keep the process alive. */
  start(): void;
  stop(): Promise<void>;
}

/**
 * A readiness probe for Postgres on a connection of its own: `SELECT 1` with a deadline. It does not
 * borrow from the service's pool, so a busy pool (all connections in use) never reads as an outage.
 * At most one probe runs at a time and at most one connection is open; a connection that failed or
 * missed its deadline is destroyed, and the next probe opens a fresh one.
 */
export function createDbHealth(o: DbHealthOptions): DbHealth {
  const intervalMs = o.intervalMs ?? 1_000;
  const timeoutMs = o.timeoutMs ?? 2_000;
  let healthy = false;
  let client: pg.Client | undefined;
  let running: Promise<boolean> | undefined;
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;

  const drop = (c: pg.Client | undefined) => {
    if (client === c) client = undefined;
    // end() destroys the socket when a query is still on it, so a hung probe cannot linger.
    void c?.end().catch(() => undefined);
  };

  const probe = async (): Promise<void> => {
    let c = client;
    if (!c) {
      const fresh = new pg.Client({ connectionString: o.url, connectionTimeoutMillis: timeoutMs, keepAlive: true, application_name: "health-probe" });
      // A restart under an idle connection emits 'error' on it; unheard, that would end the process.
      fresh.on("error", () => drop(fresh));
      client = c = fresh;
      await fresh.connect();
    }
    await c.query("SELECT 1");
  };

  const once = async (): Promise<boolean> => {
    const c = client;
    let deadline: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe(),
        new Promise<never>((_, reject) => {
          deadline = setTimeout(() => reject(new Error(`Postgres did not answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      set(true);
    } catch (err) {
      drop(client ?? c);
      set(false, err);
    } finally {
      clearTimeout(deadline);
    }
    return healthy;
  };

  const set = (next: boolean, err?: unknown) => {
    if (next === healthy) return;
    healthy = next;
    o.onChange?.(next, err);
  };

  const check = (): Promise<boolean> => {
    if (stopped) return Promise.resolve(healthy);
    running ??= once().finally(() => (running = undefined));
    return running;
  };

  return {
    get healthy() {
      return healthy;
    },
    check,
    start() {
      if (timer || stopped) return;
      timer = setInterval(() => void check(), intervalMs);
      timer.unref();
      void check();
    },
    async stop() {
      stopped = true;
      clearInterval(timer);
      timer = undefined;
      await running;
      drop(client);
      healthy = false;
    },
  };
}
