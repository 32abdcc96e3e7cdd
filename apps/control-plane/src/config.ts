import type { KeyObject } from "node:crypto";
import type { MigrationSettings } from "@gateway/db";
import { natsCredentialsFromEnv, natsTlsFromEnv, type NatsCredentials, type NatsTls } from "@gateway/nats";
import { serverCallerSettings, type ServerCallerSettings } from "@gateway/proto";
import { tracingFromEnv, type TracingConfig } from "@gateway/observability";
import { z } from "zod";
import { blankRefused, commaList, ed25519Key, port, presentVariables, problemsOf, refuseProblems, required, wholeNumber } from "@gateway/config";

const int = (def: number, min = 0) => wholeNumber(def, min);

const Schema = z.object({
  CONTROL_PLANE_DATABASE_URL: z.string(required("a PostgreSQL connection string")),
  CONTROL_PLANE_DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("control"),
  CONTROL_PLANE_NATS_URL: z.string().default("nats://127.0.0.1:4222"),
  // CONTROL_PLANE_NATS_USER and CONTROL_PLANE_NATS_PASSWORD: natsCredentialsFromEnv; CONTROL_PLANE_NATS_TLS_*: natsTlsFromEnv.
  CONTROL_PLANE_GRPC_HOST: z.string().default("127.0.0.1"),
  CONTROL_PLANE_GRPC_PORT: port(50051),
  CONTROL_PLANE_OPS_HOST: z.string().default("127.0.0.1"),
  CONTROL_PLANE_OPS_PORT: port(9464),
  // CONTROL_PLANE_ADMIN_TOKEN, _DATA_PLANE_TOKEN, _UNAUTHENTICATED_CALLERS and _TLS_*: serverCallerSettings.
  CONTROL_PLANE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CONTROL_PLANE_DB_POOL_MAX: int(10, 1),
  /**
   * "false": connect without startup `options` and take the search_path and the statement timeout
   * from the database role's settings (deploy/postgres/roles.sql), as a transaction-mode PgBouncer
   * requires. "true" (default): the connection sets both itself.
   */
  CONTROL_PLANE_DB_STARTUP_OPTIONS: z.enum(["true", "false"]).default("true"),
  /**
   * "true": the service applies its schema's migrations as it starts (development and tests). Off,
   * it only checks that the migrate step ran (`node dist/main.js migrate`; the manifests' Job) and
   * refuses to start on an older schema: a long migration never runs inside a service's start.
   */
  CONTROL_PLANE_MIGRATE_ON_START: z.enum(["true", "false"]).default("false"),
  /** The migrate step's longest statement, ms (an index built concurrently on a large table takes a while). */
  CONTROL_PLANE_MIGRATE_STATEMENT_TIMEOUT_MS: int(6 * 3_600_000, 1_000),
  /** The migrate step's longest wait for a table lock before it gives way to the traffic and tries again, ms. */
  CONTROL_PLANE_MIGRATE_LOCK_TIMEOUT_MS: int(5_000, 100),
  /**
   * Ed25519 private key (PEM) signing operators' top-up grants (docs/security.md); the ledgers hold
   * its public key (LEDGER_GRANT_PUBLIC_KEY). Unset: the console cannot top up.
   */
  CONTROL_PLANE_GRANT_SIGNING_KEY: z.string().optional(),
  /** Copies of the CATALOG stream (the catalog's price sheets, read by the ledgers) on the NATS cluster. */
  CONTROL_PLANE_CATALOG_REPLICAS: int(1, 1),
  /**
   * Seals the organizations' webhook signing secrets in Postgres (AES-256-GCM, a key per organization
   * derived by HKDF-SHA256): at least 32 characters, the same on every replica, kept as long as a
   * sealed secret is. Unset: no webhook can be set, and a control-plane whose database holds one refuses to start.
   */
  CONTROL_PLANE_SECRETS_KEY: z.string().min(32, "at least 32 characters (e.g. `openssl rand -base64 32`)").optional(),
  /**
   * Hosts (names or addresses, comma-separated) a webhook may name although the address rules would
   * refuse them, over http too: a receiver on the loopback in development and tests. Never in production.
   */
  CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: z.string().default(""),
  /** One delivery attempt's deadline (resolution, connection, answer), ms. */
  CONTROL_PLANE_WEBHOOK_TIMEOUT_MS: int(10_000, 100),
  /** The pause after a first failed attempt, doubled after each (with jitter) up to the max, ms. */
  CONTROL_PLANE_WEBHOOK_RETRY_BASE_MS: int(5_000, 10),
  CONTROL_PLANE_WEBHOOK_RETRY_MAX_MS: int(3_600_000, 10),
  /** An alert not delivered this long after it arrived is given up (state failed), ms. */
  CONTROL_PLANE_WEBHOOK_GIVE_UP_MS: int(86_400_000, 1_000),
});

/** A host as CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS names it: a DNS name or an IP address, nothing else. */
const ALLOWED_HOST = /^(\[?[0-9a-f:.]+\]?|[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*)$/;

export interface ControlPlaneConfig extends ServerCallerSettings {
  databaseUrl: string;
  dbSchema: string;
  natsUrl: string;
  /** The control-plane's NATS user (its permissions: docs/operations.md); undefined: none sent. */
  natsCredentials: NatsCredentials | undefined;
  /** TLS to NATS; undefined: plaintext. */
  natsTls: NatsTls | undefined;
  grpcHost: string;
  grpcPort: number;
  opsHost: string;
  opsPort: number;
  logLevel: z.infer<typeof Schema>["CONTROL_PLANE_LOG_LEVEL"];
  dbPoolMax: number;
  /** Send search_path and statement_timeout as startup options; false: the role's settings give them. */
  dbStartupOptions: boolean;
  /** The schema's migrations: applied at start, or only checked (the migrate step applies them). */
  migrations: MigrationSettings;
  /** Span export (the standard OTEL_* variables); undefined: no tracing at all. */
  tracing: TracingConfig | undefined;
  /** Signs operators' top-up grants; undefined: none are granted. */
  grantSigningKey: KeyObject | undefined;
  /** Copies of the CATALOG stream, created by the first control-plane to start. */
  catalogStreamReplicas: number;
  /** Seals webhook signing secrets; undefined: webhooks cannot be set. */
  secretsKey: string | undefined;
  /** Alert webhooks' deliveries (docs/billing.md, "Alerts"). */
  webhooks: WebhookSettings;
}

export interface WebhookSettings {
  /** Hosts (lower case, no brackets) exempt from the address rules, http allowed: tests and development only. */
  allowHosts: string[];
  /** One attempt's deadline, ms. */
  timeoutMs: number;
  /** Backoff after failed attempts: from base, doubling, up to max (each with jitter), ms. */
  retryBaseMs: number;
  retryMaxMs: number;
  /** Given up this long after the alert arrived, ms. */
  giveUpMs: number;
}

/** Reads the CONTROL_PLANE_* variables; throws one error listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): ControlPlaneConfig {
  // An empty variable is unset (@gateway/config).
  const set = presentVariables("CONTROL_PLANE_", env);
  const parsed = Schema.safeParse(set);
  // Caller tokens and TLS files are the exception: left empty, they are refused rather than read as none.
  const callers = serverCallerSettings("CONTROL_PLANE_", env);
  const nats = natsCredentialsFromEnv("CONTROL_PLANE_", set);
  const natsTls = natsTlsFromEnv("CONTROL_PLANE_", env);
  const otel = tracingFromEnv(env, "control-plane");
  // A blank host once meant every interface: refused rather than read as the loopback default.
  const hosts = blankRefused(env, ["CONTROL_PLANE_GRPC_HOST", "CONTROL_PLANE_OPS_HOST"]);
  const allowHosts = commaList(set.CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS).map((h) => h.toLowerCase());
  const grant = ed25519Key("CONTROL_PLANE_GRANT_SIGNING_KEY", parsed.data?.CONTROL_PLANE_GRANT_SIGNING_KEY, "private");
  refuseProblems("control-plane", [
    ...problemsOf(parsed),
    ...hosts,
    ...callers.problems,
    ...nats.problems,
    ...natsTls.problems,
    ...otel.problems,
    ...grant.problems,
    ...blankRefused(env, ["CONTROL_PLANE_GRANT_SIGNING_KEY", "CONTROL_PLANE_SECRETS_KEY"]),
    ...allowHosts.filter((h) => !ALLOWED_HOST.test(h)).map((h) => `CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: '${h}' is not a host name or address (no scheme, port or path)`),
  ]);
  const e = parsed.data!;
  return {
    databaseUrl: e.CONTROL_PLANE_DATABASE_URL,
    dbSchema: e.CONTROL_PLANE_DB_SCHEMA,
    natsUrl: e.CONTROL_PLANE_NATS_URL,
    natsCredentials: nats.credentials,
    natsTls: natsTls.tls,
    grpcHost: e.CONTROL_PLANE_GRPC_HOST,
    grpcPort: e.CONTROL_PLANE_GRPC_PORT,
    opsHost: e.CONTROL_PLANE_OPS_HOST,
    opsPort: e.CONTROL_PLANE_OPS_PORT,
    ...callers.settings,
    logLevel: e.CONTROL_PLANE_LOG_LEVEL,
    dbPoolMax: e.CONTROL_PLANE_DB_POOL_MAX,
    dbStartupOptions: e.CONTROL_PLANE_DB_STARTUP_OPTIONS === "true",
    migrations: { onStart: e.CONTROL_PLANE_MIGRATE_ON_START === "true", statementTimeoutMs: e.CONTROL_PLANE_MIGRATE_STATEMENT_TIMEOUT_MS, lockTimeoutMs: e.CONTROL_PLANE_MIGRATE_LOCK_TIMEOUT_MS },
    tracing: otel.tracing,
    grantSigningKey: grant.key,
    catalogStreamReplicas: e.CONTROL_PLANE_CATALOG_REPLICAS,
    secretsKey: e.CONTROL_PLANE_SECRETS_KEY,
    webhooks: {
      allowHosts: allowHosts.map((h) => h.replace(/^\[|\]$/g, "")),
      timeoutMs: e.CONTROL_PLANE_WEBHOOK_TIMEOUT_MS,
      retryBaseMs: e.CONTROL_PLANE_WEBHOOK_RETRY_BASE_MS,
      retryMaxMs: Math.max(e.CONTROL_PLANE_WEBHOOK_RETRY_MAX_MS, e.CONTROL_PLANE_WEBHOOK_RETRY_BASE_MS),
      giveUpMs: e.CONTROL_PLANE_WEBHOOK_GIVE_UP_MS,
    },
  };
}
