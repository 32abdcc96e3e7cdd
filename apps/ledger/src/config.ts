import type { KeyObject } from "node:crypto";
import { natsCredentialsFromEnv, natsTlsFromEnv, type NatsCredentials, type NatsTls } from "@gateway/nats";
import { usageKey, type UsageKey } from "@gateway/events";
import type { MigrationSettings } from "@gateway/db";
import { serverCallerSettings, type ServerCallerSettings } from "@gateway/proto";
import { tracingFromEnv, type TracingConfig } from "@gateway/observability";
import { z } from "zod";
import { sizeStreams, type StreamSizes } from "./consumer/stream-sizing.js";
import { blankRefused, byteSize, commaList, duration, ed25519Key, port, presentVariables, problemsOf, refuseProblems, required, wholeNumber } from "@gateway/config";

const int = (def: number, min = 0) => wholeNumber(def, min);

const Schema = z.object({
  LEDGER_DATABASE_URL: z.string(required("a PostgreSQL connection string")),
  LEDGER_DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("ledger"),
  LEDGER_NATS_URL: z.string().default("nats://127.0.0.1:4222"),
  // LEDGER_NATS_USER and LEDGER_NATS_PASSWORD: natsCredentialsFromEnv; LEDGER_NATS_TLS_*: natsTlsFromEnv.
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
  /**
   * "false": connect without startup `options` and take the search_path and the statement timeout
   * from the database role's settings (deploy/postgres/roles.sql), as a transaction-mode PgBouncer
   * requires. "true" (default): the connection sets both itself.
   */
  LEDGER_DB_STARTUP_OPTIONS: z.enum(["true", "false"]).default("true"),
  /**
   * "true": the service applies its schema's migrations as it starts (development and tests). Off,
   * it only checks that the migrate step ran (`node dist/main.js migrate`; the manifests' Job) and
   * refuses to start on an older schema: a long migration never runs inside a service's start.
   */
  LEDGER_MIGRATE_ON_START: z.enum(["true", "false"]).default("false"),
  /** The migrate step's longest statement, ms (an index built concurrently on a large table takes a while). */
  LEDGER_MIGRATE_STATEMENT_TIMEOUT_MS: int(6 * 3_600_000, 1_000),
  /** The migrate step's longest wait for a table lock before it gives way to the traffic and tries again, ms. */
  LEDGER_MIGRATE_LOCK_TIMEOUT_MS: int(5_000, 100),
  /** Run the usage consumer here; "false" makes an RPC-only replica (leases, reads, top-ups). */
  LEDGER_CONSUME: z.enum(["true", "false"]).default("true"),
  /** Most usage events applied in one transaction. */
  LEDGER_BATCH_MAX: int(500, 1),
  /**
   * Batches in their transactions at once per ledger (1 to 8): while one waits on its commit or on
   * a hot organization's row, the next inserts its records. Each batch is exactly once whatever the
   * order (usage_dedup), and every transaction locks in the same order (no deadlock).
   */
  LEDGER_APPLY_CONCURRENCY: z.coerce.number().int().min(1).max(8).default(2),
  /**
   * The pause between pull rounds that were not full, ms (1 at the least): how long a moderate flow
   * gathers into one batch. A backlog is pulled back to back whatever this says.
   */
  LEDGER_BATCH_LINGER_MS: int(10, 0),
  /** Deliveries not yet acknowledged, across every ledger replica on the durable. */
  LEDGER_MAX_ACK_PENDING: int(20_000, 1),
  /**
   * How long the durable waits for a delivery's acknowledgement before sending it again, ms: what a
   * ledger that stopped with events pulled but not applied (a previous release's, which does not
   * hand them back) delays them by. Above the slowest batch's apply (a redelivery of an event being
   * applied is a duplicate, applied once all the same); the ledger that starts sets it on the durable.
   */
  LEDGER_ACK_WAIT_MS: int(30_000, 1_000),
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
  // The streams' sizing (consumer/stream-sizing.ts; docs/performance.md, "Sizing").
  /**
   * How long a usage event stays replayable in USAGE (its max_age): a Postgres restore replays from
   * it. At least the streams' 2-minute duplicate window, within which a repeated publish is dropped.
   */
  LEDGER_USAGE_REPLAY_WINDOW: duration("72h", 120_000),
  /**
   * How long a request id is remembered after its usage was applied (usage_dedup): a replay, a
   * stranded spool or a duplicate publish within it is applied once; an event older than it is set
   * aside (dead_letters, reason out_of_horizon) rather than risk a second apply. At least the usage
   * replay window, at most 31 days (what the partitioning migration backfilled).
   */
  LEDGER_DEDUP_HORIZON: duration("7d", 120_000),
  /**
   * Months of usage records kept (0: all). Older month partitions are dropped, their totals kept by
   * the hourly rollups (docs/operations.md, "Usage records: partitions and retention").
   */
  LEDGER_USAGE_RETENTION_MONTHS: int(0, 0),
  /** How long a top-up or journal announcement stays replayable in LEDGER. */
  LEDGER_JOURNAL_REPLAY_WINDOW: duration("72h", 120_000),
  /** Sustained requests per second the deployment is built for; the windows must fit 1.25x of it. */
  LEDGER_STATED_REQUESTS_PER_SECOND: int(20, 1),
  /**
   * Refusal records per second USAGE must hold beside the requests (docs/operations.md, "Streams:
   * sizing and retention"): keys refusing at once × DATA_PLANE_REFUSAL_RECORDS_PER_S. Unset: a tenth
   * of the stated requests.
   */
  LEDGER_STATED_REFUSALS_PER_SECOND: z.coerce.number().int().nonnegative().optional(),
  /** Each NATS node's JetStream file store (its max_file_store). */
  LEDGER_NATS_STORE_BYTES: byteSize("20GiB", 64 * 1024),
  /** Reserved on each node for other streams: the data-plane's RESPONSES bucket (DATA_PLANE_RESPONSES_BUCKET_MAX_BYTES) and room to spare. */
  LEDGER_NATS_RESERVED_BYTES: byteSize("2GiB"),
  /** NATS monitoring endpoints (http://host:8222), comma-separated: each node's store is read from its /jsz. */
  LEDGER_NATS_MONITOR_URLS: z.string().default(""),
  /**
   * Keys usage messages must be signed with (docs/security.md), comma-separated (the new one first
   * while rotating; each at least 32 characters): the data-planes' DATA_PLANE_USAGE_SIGNING_KEY.
   * Unset: every message is taken (a development stack).
   */
  LEDGER_USAGE_SIGNING_KEYS: z.string().optional(),
  /**
   * The control-plane's Ed25519 public key (PEM) for operators' top-up grants (docs/security.md):
   * the console tops up only with a grant it verifies. Unset: the console cannot top up.
   */
  LEDGER_GRANT_PUBLIC_KEY: z.string().optional(),
  /** With keys set, still apply unsigned messages (a rolling upgrade from data-planes that did not sign); forged ones never. */
  LEDGER_ACCEPT_UNSIGNED_USAGE: z.enum(["true", "false"]).default("false"),
  /** How often the streams, their replicas and the nodes' stores are read for the metrics, ms. */
  LEDGER_STREAM_WATCH_INTERVAL_MS: int(15_000, 100),
  /**
   * How often the billing feed's watermark is moved (feed/watermark.ts): how long an entry waits,
   * at most, before the feed and the billing_feed view serve it (a feed reader that has caught up
   * moves it itself), ms.
   */
  LEDGER_FEED_WATERMARK_MS: int(200, 10),
});

export interface LedgerConfig extends ServerCallerSettings {
  databaseUrl: string;
  dbSchema: string;
  natsUrl: string;
  /** The ledger's NATS user (its permissions: docs/operations.md); undefined: none sent. */
  natsCredentials: NatsCredentials | undefined;
  /** TLS to NATS; undefined: plaintext. */
  natsTls: NatsTls | undefined;
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
  /** Send search_path and statement_timeout as startup options; false: the role's settings give them. */
  dbStartupOptions: boolean;
  /** How long an applied request id is remembered, ms (LEDGER_DEDUP_HORIZON). */
  dedupHorizonMs: number;
  /** Months of usage records kept; 0: all. */
  retentionMonths: number;
  /** The schema's migrations: applied at start, or only checked (the migrate step applies them). */
  migrations: MigrationSettings;
  consume: boolean;
  batchMax: number;
  applyConcurrency: number;
  batchLingerMs: number;
  maxAckPending: number;
  ackWaitMs: number;
  streamReplicas: number;
  usageArrivalMs: number;
  settleSkewMs: number;
  /** Span export (the standard OTEL_* variables); undefined: no tracing at all. */
  tracing: TracingConfig | undefined;
  exportPageRows: number;
  /** The USAGE and LEDGER streams' limits, derived from the windows, the traffic and the store. */
  streams: StreamSizes;
  natsMonitorUrls: string[];
  streamWatchIntervalMs: number;
  /** By key id; empty: signatures are not checked. */
  usageSigningKeys: ReadonlyMap<string, UsageKey>;
  acceptUnsignedUsage: boolean;
  /** Verifies operators' top-up grants; undefined: the console cannot top up. */
  grantPublicKey: KeyObject | undefined;
  feedWatermarkMs: number;
}

/** Reads the LEDGER_* variables; throws one error listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): LedgerConfig {
  // An empty variable is unset (@gateway/config): a blank line in a manifest must not turn a port into 0.
  const set = presentVariables("LEDGER_", env);
  const parsed = Schema.safeParse(set);
  // Caller tokens and TLS files are the exception: left empty, they are refused rather than read as none.
  const callers = serverCallerSettings("LEDGER_", env);
  const nats = natsCredentialsFromEnv("LEDGER_", set);
  const natsTls = natsTlsFromEnv("LEDGER_", env);
  const otel = tracingFromEnv(env, "ledger");
  // A blank host once meant every interface: refused rather than read as the loopback default.
  const hosts = blankRefused(env, ["LEDGER_GRPC_HOST", "LEDGER_OPS_HOST"]);
  const e = parsed.data;
  const sized = e
    ? sizeStreams({
        storeBytes: e.LEDGER_NATS_STORE_BYTES,
        reservedBytes: e.LEDGER_NATS_RESERVED_BYTES,
        requestsPerSecond: e.LEDGER_STATED_REQUESTS_PER_SECOND,
        ...(e.LEDGER_STATED_REFUSALS_PER_SECOND !== undefined ? { refusalsPerSecond: e.LEDGER_STATED_REFUSALS_PER_SECOND } : {}),
        usageReplayMs: e.LEDGER_USAGE_REPLAY_WINDOW,
        ledgerReplayMs: e.LEDGER_JOURNAL_REPLAY_WINDOW,
      })
    : undefined;
  const monitors = commaList(e?.LEDGER_NATS_MONITOR_URLS);
  const badMonitors = monitors.filter((u) => !/^https?:\/\/[^/\s]+\/?$/.test(u)).map((u) => `LEDGER_NATS_MONITOR_URLS: ${JSON.stringify(u)} is not an http(s)://host:port address`);
  const signingKeys = commaList(e?.LEDGER_USAGE_SIGNING_KEYS);
  const badKeys: string[] = signingKeys.some((k) => k.length < 32) ? ["LEDGER_USAGE_SIGNING_KEYS: each key at least 32 characters"] : [];
  // Set but holding no key (`,`) would quietly mean "take every message".
  if (e?.LEDGER_USAGE_SIGNING_KEYS !== undefined && signingKeys.length === 0) badKeys.push("LEDGER_USAGE_SIGNING_KEYS: no key in it (unset it to take unsigned usage)");
  const grant = ed25519Key("LEDGER_GRANT_PUBLIC_KEY", e?.LEDGER_GRANT_PUBLIC_KEY, "public");
  const horizon: string[] = [];
  if (e && e.LEDGER_DEDUP_HORIZON < e.LEDGER_USAGE_REPLAY_WINDOW) horizon.push("LEDGER_DEDUP_HORIZON: shorter than LEDGER_USAGE_REPLAY_WINDOW (a replayed event must still be known)");
  if (e && e.LEDGER_DEDUP_HORIZON > 31 * 24 * 3_600_000) horizon.push("LEDGER_DEDUP_HORIZON: at most 31d");
  refuseProblems("ledger", [
    ...horizon,
    ...problemsOf(parsed),
    ...(sized?.problems ?? []),
    ...badMonitors,
    ...badKeys,
    ...grant.problems,
    ...blankRefused(env, ["LEDGER_USAGE_SIGNING_KEYS"]),
    ...hosts,
    ...callers.problems,
    ...nats.problems,
    ...natsTls.problems,
    ...otel.problems,
  ]);
  if (!e || !sized?.sizes) throw new Error("unreachable: problems were refused");
  return {
    databaseUrl: e.LEDGER_DATABASE_URL,
    dbSchema: e.LEDGER_DB_SCHEMA,
    natsUrl: e.LEDGER_NATS_URL,
    natsCredentials: nats.credentials,
    natsTls: natsTls.tls,
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
    dbStartupOptions: e.LEDGER_DB_STARTUP_OPTIONS === "true",
    dedupHorizonMs: e.LEDGER_DEDUP_HORIZON,
    retentionMonths: e.LEDGER_USAGE_RETENTION_MONTHS,
    migrations: { onStart: e.LEDGER_MIGRATE_ON_START === "true", statementTimeoutMs: e.LEDGER_MIGRATE_STATEMENT_TIMEOUT_MS, lockTimeoutMs: e.LEDGER_MIGRATE_LOCK_TIMEOUT_MS },
    consume: e.LEDGER_CONSUME === "true",
    batchMax: e.LEDGER_BATCH_MAX,
    applyConcurrency: e.LEDGER_APPLY_CONCURRENCY,
    batchLingerMs: e.LEDGER_BATCH_LINGER_MS,
    maxAckPending: e.LEDGER_MAX_ACK_PENDING,
    ackWaitMs: e.LEDGER_ACK_WAIT_MS,
    streamReplicas: e.LEDGER_STREAM_REPLICAS,
    usageArrivalMs: e.LEDGER_USAGE_ARRIVAL_MS,
    settleSkewMs: e.LEDGER_SETTLE_SKEW_MS,
    tracing: otel.tracing,
    exportPageRows: e.LEDGER_EXPORT_PAGE_ROWS,
    streams: sized.sizes,
    natsMonitorUrls: monitors.map((u) => u.replace(/\/$/, "")),
    streamWatchIntervalMs: e.LEDGER_STREAM_WATCH_INTERVAL_MS,
    usageSigningKeys: new Map(signingKeys.map((k) => usageKey(k)).map((k) => [k.id, k])),
    acceptUnsignedUsage: e.LEDGER_ACCEPT_UNSIGNED_USAGE === "true",
    grantPublicKey: grant.key,
    feedWatermarkMs: e.LEDGER_FEED_WATERMARK_MS,
  };
}
