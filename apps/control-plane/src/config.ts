import type { KeyObject } from "node:crypto";
import type { MigrationSettings } from "@gateway/db";
import { natsCredentialsFromEnv, natsTlsFromEnv, type NatsCredentials, type NatsTls } from "@gateway/nats";
import { serverCallerSettings, type ServerCallerSettings } from "@gateway/proto";
import { tracingFromEnv, type TracingConfig } from "@gateway/observability";
import { z } from "zod";
import { blankRefused, ed25519Key, port, presentVariables, problemsOf, refuseProblems, required, wholeNumber } from "@gateway/config";

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
});

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
  const grant = ed25519Key("CONTROL_PLANE_GRANT_SIGNING_KEY", parsed.data?.CONTROL_PLANE_GRANT_SIGNING_KEY, "private");
  refuseProblems("control-plane", [
    ...problemsOf(parsed),
    ...hosts,
    ...callers.problems,
    ...nats.problems,
    ...natsTls.problems,
    ...otel.problems,
    ...grant.problems,
    ...blankRefused(env, ["CONTROL_PLANE_GRANT_SIGNING_KEY"]),
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
  };
}
