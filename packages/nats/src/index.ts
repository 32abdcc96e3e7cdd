import { setTimeout as sleep } from "node:timers/promises";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import type { Logger } from "@gateway/observability";

/**
 * Reaching NATS (and any dependency at start-up) the way every service that owns state does it:
 * wait with backoff instead of exiting, follow the connection's state for readiness, replace a
 * connection the client gave up on, and close without hanging during an outage.
 */

/** Longest pause between two attempts to reach a dependency, ms. */
const MAX_BACKOFF_MS = 5_000;

/**
 * Runs `attempt` until it succeeds, waiting longer after each failure (up to 5 s) and logging it;
 * rejects only when `signal` aborts (the service is stopping). A dependency that is down when the
 * service starts makes it wait, not-ready, instead of exit.
 */
export async function retrying<T>(log: Logger, what: string, signal: AbortSignal, attempt: () => Promise<T>): Promise<T> {
  for (let n = 0; ; n++) {
    signal.throwIfAborted();
    try {
      return await attempt();
    } catch (err) {
      if (signal.aborted) throw err;
      const delayMs = Math.min(MAX_BACKOFF_MS, 250 * 2 ** n);
      log.warn({ err, retry_in_ms: delayMs }, `${what} failed; retrying`);
      await sleep(delayMs, undefined, { signal });
    }
  }
}

export interface NatsLinkOptions {
  /** Comma-separated seed servers. */
  servers: string;
  /** Client name the server shows. */
  name: string;
  log: Logger;
  /** Aborts the waiting and the replacing (the service is stopping); abort before closing. */
  signal: AbortSignal;
  /** Runs on every new connection before it is used, inside the retry (e.g. JetStream set-up). */
  prepare?: (nc: NatsConnection) => Promise<void>;
  /** The connection in use and whether it is connected: for the context and readiness. */
  onState: (nc: NatsConnection, connected: boolean) => void;
  /** A new connection replacing one the client closed for good: move the subscriptions to it. */
  onReplaced: (nc: NatsConnection) => Promise<void>;
}

/**
 * Connects to NATS, waiting (with backoff) while it is unreachable, and reports the connection's
 * state. The client rides out server restarts by itself (it never stops reconnecting); should it
 * ever give up and close the connection anyway (say, after auth errors), a new connection is made
 * and handed to `onReplaced`, so nothing is left on a dead one.
 */
export async function connectNats(o: NatsLinkOptions): Promise<NatsConnection> {
  const dial = () =>
    retrying(o.log, "NATS connect", o.signal, async () => {
      const nc = await connect({ servers: o.servers.split(",").map((s) => s.trim()), name: o.name, maxReconnectAttempts: -1, reconnectTimeWait: 500, ignoreAuthErrorAbort: true, timeout: 5_000 });
      try {
        o.signal.throwIfAborted();
        await o.prepare?.(nc);
        return nc;
      } catch (err) {
        await nc.close().catch(() => undefined);
        throw err;
      }
    });
  const adopt = (nc: NatsConnection) => {
    o.onState(nc, true);
    void (async () => {
      for await (const s of nc.status()) {
        if (s.type === "disconnect") {
          o.onState(nc, false);
          o.log.warn("NATS disconnected; not ready while the client reconnects");
        } else if (s.type === "reconnect") {
          o.onState(nc, true);
          o.log.info("NATS reconnected");
        }
      }
    })().catch(() => undefined);
    void nc.closed().then(async (err) => {
      o.onState(nc, false);
      if (o.signal.aborted) return;
      o.log.error({ err }, "NATS connection closed by the client; opening a new one");
      try {
        const next = await dial();
        adopt(next);
        await o.onReplaced(next);
      } catch (e) {
        if (!o.signal.aborted) o.log.error({ err: e }, "NATS connection could not be replaced");
      }
    });
  };
  const first = await dial();
  adopt(first);
  return first;
}

/**
 * Drains the connection (finishing what is in flight), or closes it when the drain does not finish
 * within 2 s: a drain waits for the server, and during an outage it would wait forever.
 */
export async function closeNats(nc: NatsConnection | undefined): Promise<void> {
  if (!nc || nc.isClosed()) return;
  const drained = nc.drain().then(
    () => true,
    () => false,
  );
  if (!(await Promise.race([drained, sleep(2_000, false, { ref: false })]))) await nc.close().catch(() => undefined);
}
