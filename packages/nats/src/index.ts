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

/**
 * A service's NATS user and password (docs/operations.md, "NATS credentials and permissions"). The
 * server grants each user only the subjects its service needs; the password is never logged.
 */
export interface NatsCredentials {
  user: string;
  pass: string;
}

/**
 * `<prefix>NATS_USER` and `<prefix>NATS_PASSWORD` from a service's environment: both or neither
 * (none: connect without credentials, for a NATS that requires none). Problems name the variables,
 * never a value.
 */
export function natsCredentialsFromEnv(prefix: string, env: Record<string, string | undefined>): { credentials: NatsCredentials | undefined; problems: string[] } {
  const user = env[`${prefix}NATS_USER`] || undefined;
  const pass = env[`${prefix}NATS_PASSWORD`] || undefined;
  if (user && pass) return { credentials: { user, pass }, problems: [] };
  if (!user && !pass) return { credentials: undefined, problems: [] };
  return { credentials: undefined, problems: [`${prefix}NATS_USER: needs ${prefix}NATS_PASSWORD, and the other way round`] };
}

/**
 * TLS to NATS (docs/operations.md, "TLS inside the cluster"): the CA that signed the servers'
 * certificates, and this client's own certificate and key when the servers verify clients. PEM file
 * paths, read by the client at each connect, so a renewed certificate is picked up on the next one.
 */
export interface NatsTls {
  caFile: string;
  certFile?: string;
  keyFile?: string;
}

/**
 * `<prefix>NATS_TLS_CA_FILE`, `_CERT_FILE` and `_KEY_FILE` from a service's environment. No CA: no
 * TLS (plaintext, as before; an empty variable is refused, not read as unset). A certificate needs its key and the CA, and the other way round.
 */
export function natsTlsFromEnv(prefix: string, env: Record<string, string | undefined>): { tls: NatsTls | undefined; problems: string[] } {
  const caFile = env[`${prefix}NATS_TLS_CA_FILE`] || undefined;
  const certFile = env[`${prefix}NATS_TLS_CERT_FILE`] || undefined;
  const keyFile = env[`${prefix}NATS_TLS_KEY_FILE`] || undefined;
  // An empty path is refused: it must not quietly mean plaintext.
  const problems = ["CA", "CERT", "KEY"].filter((n) => env[`${prefix}NATS_TLS_${n}_FILE`] === "").map((n) => `${prefix}NATS_TLS_${n}_FILE: must not be empty`);
  if (Boolean(certFile) !== Boolean(keyFile)) problems.push(`${prefix}NATS_TLS_CERT_FILE: needs ${prefix}NATS_TLS_KEY_FILE, and the other way round`);
  if (certFile && !caFile) problems.push(`${prefix}NATS_TLS_CERT_FILE: needs ${prefix}NATS_TLS_CA_FILE (the CA of the servers' certificates)`);
  if (!caFile || problems.length > 0) return { tls: undefined, problems };
  return { tls: { caFile, ...(certFile && keyFile ? { certFile, keyFile } : {}) }, problems };
}

/** The client's connect options for `tls`: nothing when undefined (plaintext). */
export const natsTlsOptions = (tls: NatsTls | undefined): { tls?: NatsTls } => (tls ? { tls: { ...tls } } : {});

/** The servers of a NATS URL list with any password in them masked, for messages and logs. */
export function redactNatsUrl(servers: string): string {
  return servers.replace(/\/\/([^:@/,\s]*):[^@/,\s]*@/g, "//$1:***@");
}

/**
 * What NATS refusing a connection's credentials means, said without the password; undefined for any
 * other failure (unreachable, timed out).
 */
export function natsAuthProblem(err: unknown, credentials: NatsCredentials | undefined): string | undefined {
  if (!(err instanceof Error) || !/authorization violation|authentication/i.test(err.message)) return undefined;
  return credentials ? `NATS refused the credentials of user "${credentials.user}"` : "NATS requires credentials: none are configured (or the ones in its URL are wrong)";
}

export interface NatsLinkOptions {
  /** Comma-separated seed servers. */
  servers: string;
  /** Client name the server shows. */
  name: string;
  /** User and password, when the server requires them. */
  credentials?: NatsCredentials | undefined;
  /** TLS to the servers; plaintext when undefined. */
  tls?: NatsTls | undefined;
  /** Prefix of this client's reply subjects (`INBOX_PREFIX` in @gateway/events): its NATS permissions allow only those. */
  inboxPrefix: string;
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
      const nc = await connect({
        servers: o.servers.split(",").map((s) => s.trim()),
        name: o.name,
        ...o.credentials,
        ...natsTlsOptions(o.tls),
        inboxPrefix: o.inboxPrefix,
        maxReconnectAttempts: -1,
        reconnectTimeWait: 500,
        ignoreAuthErrorAbort: true,
        timeout: 5_000,
      }).catch((err: unknown) => {
        const problem = natsAuthProblem(err, o.credentials);
        throw problem ? new Error(problem, { cause: err }) : err;
      });
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
