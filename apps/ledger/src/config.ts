import { natsCredentialsFromEnv, type NatsCredentials } from "@gateway/nats";
import { serverCallerSettings, type ServerCallerSettings } from "@gateway/proto";
import { tracingFromEnv, type TracingConfig } from "@gateway/observability";
import { z } from "zod";
import { blankRefused, port, presentVariables, problemsOf, refuseProblems, required, wholeNumber } from "@gateway/config";

const int = (def: number, min = 0) => wholeNumber(def, min);

const Schema = z.object({
  LEDGER_DATABASE_URL: z.string(required("a PostgreSQL connection string")),
  LEDGER_DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("ledger"),
  LEDGER_NATS_URL: z.string().default("nats://127.0.0.1:4222"),
  // LEDGER_NATS_USER and LEDGER_NATS_PASSWORD: natsCredentialsFromEnv.
  LEDGER_GRPC_HOST: z.string().default("127.0.0.1"),
  LEDGER_GRPC_PORT: port(50052),
  LEDGER_OPS_HOST: z.string().default("127.0.0.1"),
  LEDGER_OPS_PORT: port(9465),
  // LEDGER_ADMIN_TOKEN, _DATA_PLANE_TOKEN, _UNAUTHENTICATED_CALLERS and _TLS_*: serverCallerSettings.
  LEDGER_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  /** Longest lease lifetime granted, ms. */
  LEDGER_LEASE_MAX_TTL_MS: int(120_000, 1_000),
  /** How often expired leases are released, ms. */
  LEDGER_SWEEP_INTERVAL_MS: int(1_000, 50),
  LEDGER_CONSUMER_DURABLE: z
    .string()
    .regex(/^[A-Za-z0-9_-]+$/)
    .default("ledger"),
  /** Cap on how long GetUsage waits for a record not applied yet, ms. */
  LEDGER_USAGE_WAIT_MAX_MS: int(5_000, 0),
  LEDGER_DB_POOL_MAX: int(10, 1),
  /** Run the usage consumer here; "false" makes an RPC-only replica (leases, reads, top-ups). */
  LEDGER_CONSUME: z.enum(["true", "false"]).default("true"),
  /** Most usage events applied in one transaction. */
  LEDGER_BATCH_MAX: int(500, 1),
  /**
   * The pause between pull rounds that were not full, ms (1 at the least): how long a moderate flow
   * gathers into one batch. A backlog is pulled back to back whatever this says.
   */
  LEDGER_BATCH_LINGER_MS: int(10, 0),
  /** Deliveries not yet acknowledged, across every ledger replica on the durable. */
  LEDGER_MAX_ACK_PENDING: int(20_000, 1),
  /** Copies of the USAGE and LEDGER streams (3 on a three-node NATS cluster). */
  LEDGER_STREAM_REPLICAS: int(1, 1),
  /**
   * Longest time after a lease expires in which usage taken from it can still be published: the
   * data-plane's longest request (every attempt and fallback) plus its publish timeout plus clock
   * skew, ms. An expired lease's hold is released only once the consumer has applied everything
   * published up to expiry + this.
   */
  LEDGER_USAGE_ARRIVAL_MS: int(600_000, 0),
  /** Clock skew allowed between the ledger and NATS/the data-plane when settling released leases, ms. */
  LEDGER_SETTLE_SKEW_MS: int(5_000, 0),
  /**
   * Usage records per page of ExportUsage: one Postgres read and one gRPC message each (about 1 KB
   * a record, so the 5,000 cap stays well under gRPC's 4 MiB message limit).
   */
  LEDGER_EXPORT_PAGE_ROWS: wholeNumber(1_000, 1, 5_000),
});

export interface LedgerConfig extends ServerCallerSettings {
  databaseUrl: string;
  dbSchema: string;
  natsUrl: string;
  /** The ledger's NATS user (its permissions: docs/operations.md); undefined: none sent. */
  natsCredentials: NatsCredentials | undefined;
  grpcHost: string;
  grpcPort: number;
  opsHost: string;
  opsPort: number;
  logLevel: z.infer<typeof Schema>["LEDGER_LOG_LEVEL"];
  leaseMaxTtlMs: number;
  sweepIntervalMs: number;
  consumerDurable: string;
  usageWaitMaxMs: number;
  dbPoolMax: number;
  consume: boolean;
  batchMax: number;
  batchLingerMs: number;
  maxAckPending: number;
  streamReplicas: number;
  usageArrivalMs: number;
  settleSkewMs: number;
  /** Span export (the standard OTEL_* variables); undefined: no tracing at all. */
  tracing: TracingConfig | undefined;
  exportPageRows: number;
}

/** Reads the LEDGER_* variables; throws one error listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): LedgerConfig {
  // An empty variable is unset (@gateway/config): a blank line in a manifest must not turn a port into 0.
  const set = presentVariables("LEDGER_", env);
  const parsed = Schema.safeParse(set);
  // Caller tokens and TLS files are the exception: left empty, they are refused rather than read as none.
  const callers = serverCallerSettings("LEDGER_", env);
  const nats = natsCredentialsFromEnv("LEDGER_", set);
  const otel = tracingFromEnv(env, "ledger");
  // A blank host once meant every interface: refused rather than read as the loopback default.
  const hosts = blankRefused(env, ["LEDGER_GRPC_HOST", "LEDGER_OPS_HOST"]);
  refuseProblems("ledger", [...problemsOf(parsed), ...hosts, ...callers.problems, ...nats.problems, ...otel.problems]);
  const e = parsed.data!;
  return {
    databaseUrl: e.LEDGER_DATABASE_URL,
    dbSchema: e.LEDGER_DB_SCHEMA,
    natsUrl: e.LEDGER_NATS_URL,
    natsCredentials: nats.credentials,
    grpcHost: e.LEDGER_GRPC_HOST,
    grpcPort: e.LEDGER_GRPC_PORT,
    opsHost: e.LEDGER_OPS_HOST,
    opsPort: e.LEDGER_OPS_PORT,
    ...callers.settings,
    logLevel: e.LEDGER_LOG_LEVEL,
    leaseMaxTtlMs: e.LEDGER_LEASE_MAX_TTL_MS,
    sweepIntervalMs: e.LEDGER_SWEEP_INTERVAL_MS,
    consumerDurable: e.LEDGER_CONSUMER_DURABLE,
    usageWaitMaxMs: e.LEDGER_USAGE_WAIT_MAX_MS,
    dbPoolMax: e.LEDGER_DB_POOL_MAX,
    consume: e.LEDGER_CONSUME === "true",
    batchMax: e.LEDGER_BATCH_MAX,
    batchLingerMs: e.LEDGER_BATCH_LINGER_MS,
    maxAckPending: e.LEDGER_MAX_ACK_PENDING,
    streamReplicas: e.LEDGER_STREAM_REPLICAS,
    usageArrivalMs: e.LEDGER_USAGE_ARRIVAL_MS,
    settleSkewMs: e.LEDGER_SETTLE_SKEW_MS,
    tracing: otel.tracing,
    exportPageRows: e.LEDGER_EXPORT_PAGE_ROWS,
  };
}
