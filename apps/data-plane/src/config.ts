import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { z } from "zod";
import { blankRefused, port, presentVariables, problemsOf, refuseProblems, wholeNumber } from "@gateway/config";
import { USAGE_BATCH_MAX_EVENTS, usageKey } from "@gateway/events";
import { natsCredentialsFromEnv, natsTlsFromEnv } from "@gateway/nats";
import { KEY_SCOPES, ROUTE_TABLE, type ApiRoute } from "@gateway/proto";
import { tracingFromEnv } from "@gateway/observability";

const int = (def: number, min = 0) => wholeNumber(def, min);

/** The variable of each route's body limit, from the route table. */
const bodyLimitVariable = (route: ApiRoute) => `DATA_PLANE_BODY_LIMIT_${ROUTE_TABLE[route].bodyLimit}_BYTES`;
const BODY_LIMIT_VARIABLES = Object.fromEntries(KEY_SCOPES.map((r) => [bodyLimitVariable(r), wholeNumber(undefined, 1_024)])) as Record<
  `DATA_PLANE_BODY_LIMIT_${(typeof ROUTE_TABLE)[ApiRoute]["bodyLimit"]}_BYTES`,
  ReturnType<typeof wholeNumber>
>;

/**
 * Body limit by route, bytes: the route's own variable, else the route it falls back to
 * (ROUTE_TABLE: responses and mcp take chat's), else DATA_PLANE_BODY_LIMIT_BYTES.
 */
function bodyLimitsOf(e: Record<string, unknown>, whole: number): Record<ApiRoute, number> {
  const own = (r: ApiRoute) => e[bodyLimitVariable(r)] as number | undefined;
  return Object.fromEntries(
    KEY_SCOPES.map((r) => {
      const spec = ROUTE_TABLE[r] as { fallback?: ApiRoute };
      return [r, own(r) ?? (spec.fallback ? own(spec.fallback) : undefined) ?? whole];
    }),
  ) as Record<ApiRoute, number>;
}

const Schema = z.object({
  DATA_PLANE_HOST: z.string().default("127.0.0.1"),
  DATA_PLANE_PORT: port(8080),
  /**
   * Serve /metrics on this port (on DATA_PLANE_HOST) instead of the API's: Prometheus scrapes it and
   * the public port, behind the ingress, no longer shows it. Unset: /metrics on DATA_PLANE_PORT.
   */
  DATA_PLANE_METRICS_PORT: wholeNumber(undefined, 0, 65_535),
  DATA_PLANE_CONTROL_PLANE_ADDR: z.string().default("127.0.0.1:50051"),
  DATA_PLANE_LEDGER_ADDR: z.string().default("127.0.0.1:50052"),
  /** This data-plane's caller token at the control-plane (one of its CONTROL_PLANE_DATA_PLANE_TOKEN). */
  DATA_PLANE_CONTROL_PLANE_TOKEN: z.string({ error: "required: the data-plane's control-plane token" }).min(16, "at least 16 characters"),
  /** This data-plane's caller token at the ledger (one of its LEDGER_DATA_PLANE_TOKEN). */
  DATA_PLANE_LEDGER_TOKEN: z.string({ error: "required: the data-plane's ledger token" }).min(16, "at least 16 characters"),
  /** PEM CA bundle that signed the control-plane's and ledger's certificates: gRPC over TLS. */
  DATA_PLANE_GRPC_TLS_CA_FILE: z.string().min(1).optional(),
  /** PEM client certificate and key, for servers that require mTLS. */
  DATA_PLANE_GRPC_TLS_CERT_FILE: z.string().min(1).optional(),
  DATA_PLANE_GRPC_TLS_KEY_FILE: z.string().min(1).optional(),
  DATA_PLANE_NATS_URL: z.string().default("nats://127.0.0.1:4222"),
  // DATA_PLANE_NATS_USER and DATA_PLANE_NATS_PASSWORD: natsCredentialsFromEnv; DATA_PLANE_NATS_TLS_*: natsTlsFromEnv.
  DATA_PLANE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  DATA_PLANE_REPLICA_ID: z.string().default(`${hostname()}-${process.pid}`),
  /** Deadline of control-plane calls, ms. */
  DATA_PLANE_CONTROL_TIMEOUT_MS: int(1_000, 50),
  /** Deadline of ledger calls, ms. */
  DATA_PLANE_LEDGER_TIMEOUT_MS: int(2_000, 50),
  /** How long a cached key context is fresh, ms (change events evict sooner). */
  DATA_PLANE_KEY_CACHE_TTL_MS: int(30_000, 0),
  /** How long a known key keeps working from cache while the control-plane is unreachable, ms. */
  DATA_PLANE_KEY_CACHE_MAX_STALE_MS: int(300_000, 0),
  /** How long an unknown key is remembered as unknown, ms. */
  DATA_PLANE_NEGATIVE_CACHE_TTL_MS: int(2_000, 0),
  DATA_PLANE_KEY_CACHE_MAX_ENTRIES: int(50_000, 1),
  /** Catalog and trial-policy poll interval (backstop for change events), ms. */
  DATA_PLANE_CATALOG_REFRESH_MS: int(10_000, 100),
  /** Default per-attempt upstream timeout, ms. */
  DATA_PLANE_UPSTREAM_TIMEOUT_MS: int(60_000, 1_000),
  /**
   * When a stream's client leaves, how long the provider's stream is still read (not forwarded) for
   * its own usage report, ms; 0 cancels at once (docs/billing.md, "Streams that end without usage").
   */
  DATA_PLANE_CLIENT_GONE_DRAIN_MS: int(2_000, 0),
  /** Bounds a caller's x-gateway-timeout-ms is clamped to, ms. */
  DATA_PLANE_UPSTREAM_TIMEOUT_MIN_MS: int(1_000, 1_000),
  DATA_PLANE_UPSTREAM_TIMEOUT_MAX_MS: int(300_000, 1_000),
  /** Retries of the same deployment for a retryable failure before falling back. */
  DATA_PLANE_UPSTREAM_RETRIES: int(2, 0),
  /** First retry backoff, ms (doubles per retry, full jitter). */
  DATA_PLANE_RETRY_BASE_MS: int(100, 0),
  /** Longest wait before a retry, ms; a Retry-After above it falls back instead. */
  DATA_PLANE_RETRY_MAX_MS: int(2_000, 0),
  /** Consecutive failures that cool a deployment down. */
  DATA_PLANE_BREAKER_THRESHOLD: int(5, 1),
  /** How long a cooled-down deployment is skipped, ms. */
  DATA_PLANE_BREAKER_COOLDOWN_MS: int(30_000, 0),
  /** Largest JSON request body accepted, bytes. */
  DATA_PLANE_BODY_LIMIT_BYTES: int(4 * 1024 * 1024, 1_024),
  /** Credit a replica leases from the ledger at a time for one org, minor units. */
  DATA_PLANE_LEASE_CHUNK_MINOR: int(2_000_000, 1),
  /** Lease lifetime requested from the ledger, ms (renewed while in use). */
  DATA_PLANE_LEASE_TTL_MS: int(60_000, 1_000),
  /** An org's lease unused this long is handed back to the ledger, ms. */
  DATA_PLANE_LEASE_IDLE_MS: int(15_000, 100),
  /** Largest number of orgs with a local lease. */
  DATA_PLANE_LEASE_MAX_ORGS: int(10_000, 1),
  /** Folder of the local usage spool used while NATS is unreachable. */
  DATA_PLANE_SPOOL_DIR: z.string().default(".local/spool"),
  /** Usage events the spool may hold; past it, paid routes answer 503. */
  DATA_PLANE_SPOOL_MAX_EVENTS: int(100_000, 1),
  /**
   * A spool file's lock written from another host or container is taken over once its holder has
   * not refreshed it for this long, ms (the holder refreshes it every sixth of it).
   */
  DATA_PLANE_SPOOL_LOCK_STALE_MS: int(30_000, 1_000),
  /**
   * Where the spool drain (`drain-spool`) pushes its result as metrics when it ends: a Prometheus
   * Pushgateway's base URL (docs/operations.md, "Runbook: a stranded spool"). Unset: only its log line.
   */
  DATA_PLANE_DRAIN_PUSHGATEWAY_URL: z.string().url().optional(),
  /** On shutdown, how long the spool keeps being replayed while NATS does not acknowledge, ms (the rest stays on disk). */
  DATA_PLANE_SHUTDOWN_REPLAY_MS: int(10_000, 0),
  /**
   * On SIGTERM, how long the replica goes on serving (new connections included) after its readiness
   * turned false, so the Service's endpoints drop it before it stops listening, ms (0 by default: no
   * load balancer to leave locally; the Kubernetes manifests set 5 s).
   */
  DATA_PLANE_SHUTDOWN_PAUSE_MS: int(0, 0),
  /**
   * Then, how long open streams may go on before they are ended with their error event (and billed),
   * ms; with the pause and the replay it must fit in the pod's termination grace period (the
   * manifests: 30 s of 60).
   */
  DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS: int(10_000, 0),
  /** Deadline of a JetStream publish acknowledgement, ms. */
  DATA_PLANE_PUBLISH_TIMEOUT_MS: int(2_000, 50),
  /**
   * Most usage events per JetStream message (`usage.v1.batch` above 1). 1 publishes one
   * `usage.v1.recorded` message per event: for a rolling upgrade from ledgers that predate the
   * batch subject, until every ledger reads it.
   */
  DATA_PLANE_USAGE_BATCH_EVENTS: wholeNumber(USAGE_BATCH_MAX_EVENTS, 1, USAGE_BATCH_MAX_EVENTS),
  /** How long a stored Response is kept (the RESPONSES bucket's max age), hours: OpenAI's 30 days. */
  DATA_PLANE_RESPONSES_RETENTION_HOURS: int(720, 1),
  /** Copies of the RESPONSES bucket on the NATS cluster (3 on the three-node cluster). */
  DATA_PLANE_RESPONSES_REPLICAS: int(1, 1),
  /** Largest stored Response record, bytes (also bounded by NATS max_payload); a larger one is not stored. */
  DATA_PLANE_RESPONSES_MAX_BYTES: int(1024 * 1024, 1_024),
  /** The RESPONSES bucket's total bound, bytes (JetStream reserves it on the servers' file store). */
  DATA_PLANE_RESPONSES_BUCKET_MAX_BYTES: int(1024 * 1024 * 1024, 64 * 1024),
  /**
   * Seals stored Responses per organization (responses/seal.ts); every replica needs the same.
   * Unset: a key of this process's own (a development stack; a restart forgets what was stored).
   */
  DATA_PLANE_RESPONSES_SECRET: z.string().min(32, "at least 32 characters").optional(),
  /**
   * Signs every usage message (HMAC-SHA256, docs/security.md): the same secret is in the ledgers'
   * LEDGER_USAGE_SIGNING_KEYS. Unset: messages go unsigned, which only a ledger without keys takes.
   */
  DATA_PLANE_USAGE_SIGNING_KEY: z.string().min(32, "at least 32 characters").optional(),
  /** Read unsealed records NATS stamped before this instant (ISO 8601; the upgrade from a release that stored them so). */
  DATA_PLANE_RESPONSES_PLAINTEXT_BEFORE: z.iso.datetime({ offset: true, error: "an ISO 8601 instant such as 2026-12-01T00:00:00Z" }).optional(),
  /**
   * Cache-warm routing (docs/providers.md): an agent session's turns go to the deployment that served
   * it while the provider's prompt cache lives, on models whose cached reads are cheaper.
   */
  DATA_PLANE_SESSION_PINS: z.enum(["true", "false", "1", "0", "on", "off"]).default("true"),
  /** Session pins kept in each replica's memory at most (the least recently used is dropped for a new one). */
  DATA_PLANE_SESSION_PINS_MAX: int(100_000, 1),
  /** The PINS bucket's total bound, bytes (JetStream reserves it on the servers' file store). */
  DATA_PLANE_SESSION_PINS_BUCKET_MAX_BYTES: int(64 * 1024 * 1024, 64 * 1024),
  /**
   * Holds in tranches (docs/billing.md): a streamed request whose output bound exceeds this many
   * tokens holds its prompt and this much output at admission, and one more tranche each time its
   * provider may have come within half a tranche of what is held. 0: every request held whole.
   */
  DATA_PLANE_HOLD_TRANCHE_TOKENS: int(4_096, 0),
  /** How often a stream held in tranches compares what its provider may have produced with what is held, ms. */
  DATA_PLANE_HOLD_TRANCHE_CHECK_MS: int(200, 10),
  /** How long GET /v1/usage waits for a recent request's record, ms. */
  DATA_PLANE_USAGE_WAIT_MS: int(2_000, 0),
  /** A client must send its request headers within this, ms (slow-loris bound). */
  DATA_PLANE_HEADERS_TIMEOUT_MS: int(15_000, 100),
  /** Idle keep-alive sockets are closed after this, ms. */
  DATA_PLANE_KEEP_ALIVE_TIMEOUT_MS: int(65_000, 100),
  /**
   * Connections the kernel queues for the server before it accepts them (capped by
   * net.core.somaxconn). Node's default, 511, overflows when a burst of clients connects at once:
   * the rest wait a second or more for their SYN to be sent again.
   */
  DATA_PLANE_LISTEN_BACKLOG: int(4096, 1),
  /** Largest body per route, bytes (DATA_PLANE_BODY_LIMIT_<ROUTE>_BYTES, one per route of ROUTE_TABLE); unset: see bodyLimitsOf. */
  ...BODY_LIMIT_VARIABLES,
  /** Refuse prompts that cannot fit the model's context window (tokenizers load at start). */
  DATA_PLANE_CONTEXT_PRECHECK: z.enum(["true", "false", "1", "0", "on", "off"]).default("false"),
  /** How often replicas gossip rate-limit counts, ms (the cross-replica tolerance window). */
  DATA_PLANE_RATE_LIMIT_GOSSIP_MS: int(200, 20),
  /** Keys tracked by the rate limiter (bound). */
  DATA_PLANE_RATE_LIMIT_MAX_KEYS: int(100_000, 1),
  /**
   * Refusal records (docs/billing.md, "Refusal records"): per key, at most this many a second are
   * published (a token bucket of DATA_PLANE_REFUSAL_RECORDS_BURST), the rest dropped and counted;
   * 0 publishes none (while ledgers before them run). Keys tracked: at most ..._MAX_KEYS (least
   * recently refused evicted first).
   */
  DATA_PLANE_REFUSAL_RECORDS_PER_S: int(10, 0),
  DATA_PLANE_REFUSAL_RECORDS_BURST: int(20, 1),
  DATA_PLANE_REFUSAL_RECORDS_MAX_KEYS: int(10_000, 1),
  /**
   * Folder of mounted provider secrets (file name = credential_ref). A credential_ref resolves only
   * in its own namespace: the variable DATA_PLANE_PROVIDER_KEY_<ref>, then this folder; never any
   * other variable of the process (a catalog must not be able to send the data-plane's own tokens).
   */
  DATA_PLANE_SECRETS_DIR: z.string().optional(),
  /** External base URL of the gateway (for video content links); default: from the request's Host. */
  DATA_PLANE_PUBLIC_URL: z.string().url().optional(),
  /** A poll refreshes a video job from the provider when its record is older than this, ms. */
  DATA_PLANE_VIDEO_POLL_STALE_MS: int(2_000, 0),
  /** How often the reconciler looks for stale video jobs, ms. */
  DATA_PLANE_VIDEO_RECONCILE_MS: int(5_000, 50),
  /** The reconciler refreshes unfinished jobs not refreshed for this long, ms. */
  DATA_PLANE_VIDEO_STALE_MS: int(10_000, 0),
  /** A claimed job is this replica's for this long (then another may take it over), ms. */
  DATA_PLANE_VIDEO_CLAIM_MS: int(30_000, 1_000),
  /** A job unfinished after this long is failed (provider stuck) and its hold released, ms. */
  DATA_PLANE_VIDEO_MAX_AGE_MS: int(3_600_000, 1_000),
  /**
   * How often every unsettled video job's hold is renewed at the ledger, ms, whatever its refresh is
   * doing; default a third of DATA_PLANE_LEASE_TTL_MS, and below half of it (docs/video.md, "Holds").
   */
  DATA_PLANE_VIDEO_HOLD_RENEW_MS: wholeNumber(undefined, 100),
  /** Hold renewals a replica has at the ledger at once. */
  DATA_PLANE_VIDEO_HOLD_CONCURRENCY: int(8, 1),
  /** Provider status refreshes the reconciler of one replica runs at once (each holds a claim). */
  DATA_PLANE_VIDEO_REFRESH_CONCURRENCY: int(4, 1),
  /** Static name→address map for media URL checks, before DNS: `host=addr,addr;host2=addr`. */
  DATA_PLANE_MEDIA_STATIC_HOSTS: z.string().default(""),
  /** Deadline of a media URL's DNS resolution, ms. */
  DATA_PLANE_MEDIA_DNS_TIMEOUT_MS: int(2_000, 10),
  /** Signs MCP session ids (docs/mcp.md): every replica needs the same, or a session works only on the replica that began it. */
  DATA_PLANE_MCP_SESSION_SECRET: z.string().default(""),
  /** Deadline of one call to an MCP upstream (tools/list, tools/call), ms. */
  DATA_PLANE_MCP_TIMEOUT_MS: int(30_000, 100),
  /** Largest tool result relayed, bytes (serialised JSON); a larger one is an error. */
  DATA_PLANE_MCP_MAX_RESULT_BYTES: int(1_048_576, 1_024),
  /** How long an upstream's tool list is used before it is read again, ms. */
  DATA_PLANE_MCP_TOOLS_TTL_MS: int(30_000, 0),
  /** Upstream MCP sessions a replica keeps open at most (one per server and organization, or key): docs/mcp.md, "Upstream sessions". */
  DATA_PLANE_MCP_MAX_SESSIONS: int(1_000, 1),
  /** An upstream MCP session unused this long is closed, ms. */
  DATA_PLANE_MCP_SESSION_IDLE_MS: int(300_000, 1_000),
  /** The Responses API's WebSocket mode (docs/providers.md, "WebSocket mode"): turns one connection may carry; the next is refused with `websocket_connection_limit_reached` and the connection closed. */
  DATA_PLANE_WS_MAX_TURNS: int(500, 1),
  /** A WebSocket connection with no turn running and no message for this long is closed, ms. */
  DATA_PLANE_WS_IDLE_TIMEOUT_MS: int(300_000, 1_000),
  /** A WebSocket connection older than this takes no new turn (`websocket_connection_limit_reached`, as OpenAI's 60 minutes), ms. */
  DATA_PLANE_WS_MAX_AGE_MS: int(3_600_000, 1_000),
  /** WebSocket connections one API key may hold open on a replica; one more is refused before the upgrade (429). */
  DATA_PLANE_WS_MAX_CONNECTIONS_PER_KEY: int(32, 1),
  /** WebSocket connections a replica holds open at most; one more is refused before the upgrade (503). */
  DATA_PLANE_WS_MAX_CONNECTIONS: int(10_000, 1),
  /** Development only: MCP servers at http://127.0.0.1 / localhost (else an https URL whose every address is public, as media URLs). */
  DATA_PLANE_MCP_ALLOW_LOOPBACK: z.enum(["true", "false", "1", "0", "on", "off"]).default("false"),
});

/** The data-plane's settings, as loadConfig reads them from the environment. */
export type DataPlaneConfig = ReturnType<typeof loadConfig>;

/** How long a resolved provider credential is used before it is read again (secret rotation). */
const CREDENTIAL_TTL_MS = 30_000;
/** Credential references remembered at most (the catalog names far fewer). */
const CREDENTIAL_CACHE_MAX = 1_024;

/** Where a provider's credential_ref is looked up as a variable: DATA_PLANE_PROVIDER_KEY_<ref>. */
export const PROVIDER_KEY_PREFIX = "DATA_PLANE_PROVIDER_KEY_";
/** A credential_ref: a name, never a path (the same rule the control-plane applies to a catalog). */
export const CREDENTIAL_REF = /^[A-Za-z0-9_][A-Za-z0-9_.-]{0,127}$/;

/** Reads the DATA_PLANE_* variables; throws one error listing every problem. */
export function loadConfig(env: Record<string, string | undefined>) {
  // An empty variable is unset (@gateway/config), but an empty TLS file or host is refused (it must
  // not quietly mean plaintext, or loopback where a blank host once meant every interface);
  // provider credentials are read from the whole environment.
  const set = presentVariables("DATA_PLANE_", env);
  const parsed = Schema.safeParse(set);
  const otel = tracingFromEnv(env, "data-plane");
  const nats = natsCredentialsFromEnv("DATA_PLANE_", set);
  const natsTls = natsTlsFromEnv("DATA_PLANE_", env);
  const tls = blankRefused(env, [
    "DATA_PLANE_HOST",
    "DATA_PLANE_RESPONSES_SECRET",
    "DATA_PLANE_USAGE_SIGNING_KEY",
    "DATA_PLANE_GRPC_TLS_CA_FILE",
    "DATA_PLANE_GRPC_TLS_CERT_FILE",
    "DATA_PLANE_GRPC_TLS_KEY_FILE",
  ]);
  refuseProblems("data-plane", [...problemsOf(parsed), ...tls, ...nats.problems, ...natsTls.problems, ...otel.problems]);
  const e = parsed.data!;
  if (e.DATA_PLANE_UPSTREAM_TIMEOUT_MIN_MS > e.DATA_PLANE_UPSTREAM_TIMEOUT_MAX_MS) {
    throw new Error("invalid data-plane configuration:\n  DATA_PLANE_UPSTREAM_TIMEOUT_MIN_MS: must not exceed DATA_PLANE_UPSTREAM_TIMEOUT_MAX_MS");
  }
  const holdRenewMs = e.DATA_PLANE_VIDEO_HOLD_RENEW_MS ?? Math.floor(e.DATA_PLANE_LEASE_TTL_MS / 3);
  if (holdRenewMs * 2 > e.DATA_PLANE_LEASE_TTL_MS) {
    // One renewal may be missed (a replica that died with the jobs it took) before a hold lapses.
    throw new Error("invalid data-plane configuration:\n  DATA_PLANE_VIDEO_HOLD_RENEW_MS: must be at most half of DATA_PLANE_LEASE_TTL_MS");
  }
  if (Boolean(e.DATA_PLANE_GRPC_TLS_CERT_FILE) !== Boolean(e.DATA_PLANE_GRPC_TLS_KEY_FILE)) {
    throw new Error("invalid data-plane configuration:\n  DATA_PLANE_GRPC_TLS_CERT_FILE: needs DATA_PLANE_GRPC_TLS_KEY_FILE, and the other way round");
  }
  const secretsDir = e.DATA_PLANE_SECRETS_DIR;
  const read = (ref: string): string | undefined => {
    if (!CREDENTIAL_REF.test(ref)) return undefined;
    const fromEnv = env[`${PROVIDER_KEY_PREFIX}${ref}`];
    if (fromEnv) return fromEnv;
    if (!secretsDir) return undefined;
    try {
      return readFileSync(join(secretsDir, ref), "utf8").trim() || undefined;
    } catch {
      return undefined;
    }
  };
  // Every planned deployment asks for its credential: answered from memory, read again (env or the
  // mounted secret file) at most every CREDENTIAL_TTL_MS, so a rotated secret takes effect within
  // that without a file read per request. Bounded: refs come from the catalog.
  const credentials = new Map<string, { value: string | undefined; until: number }>();
  const resolveCredential = (ref: string): string | undefined => {
    const now = Date.now();
    const hit = credentials.get(ref);
    if (hit && hit.until > now) return hit.value;
    if (credentials.size >= CREDENTIAL_CACHE_MAX) credentials.clear();
    const value = read(ref);
    credentials.set(ref, { value, until: now + CREDENTIAL_TTL_MS });
    return value;
  };
  return {
    host: e.DATA_PLANE_HOST,
    port: e.DATA_PLANE_PORT,
    metricsPort: e.DATA_PLANE_METRICS_PORT,
    controlPlaneAddr: e.DATA_PLANE_CONTROL_PLANE_ADDR,
    ledgerAddr: e.DATA_PLANE_LEDGER_ADDR,
    /** Caller tokens this data-plane presents to the control-plane and the ledger. */
    controlPlaneToken: e.DATA_PLANE_CONTROL_PLANE_TOKEN,
    ledgerToken: e.DATA_PLANE_LEDGER_TOKEN,
    /** gRPC over TLS to both (a client certificate for mTLS); plaintext when undefined. */
    grpcTls:
      e.DATA_PLANE_GRPC_TLS_CA_FILE || e.DATA_PLANE_GRPC_TLS_CERT_FILE
        ? { caFile: e.DATA_PLANE_GRPC_TLS_CA_FILE, certFile: e.DATA_PLANE_GRPC_TLS_CERT_FILE, keyFile: e.DATA_PLANE_GRPC_TLS_KEY_FILE }
        : undefined,
    natsUrl: e.DATA_PLANE_NATS_URL,
    /** This replica's NATS user (its permissions: docs/operations.md); undefined: none sent. */
    natsCredentials: nats.credentials,
    /** TLS to NATS; undefined: plaintext. */
    natsTls: natsTls.tls,
    logLevel: e.DATA_PLANE_LOG_LEVEL,
    replicaId: e.DATA_PLANE_REPLICA_ID,
    controlTimeoutMs: e.DATA_PLANE_CONTROL_TIMEOUT_MS,
    ledgerTimeoutMs: e.DATA_PLANE_LEDGER_TIMEOUT_MS,
    keyCacheTtlMs: e.DATA_PLANE_KEY_CACHE_TTL_MS,
    keyCacheMaxStaleMs: e.DATA_PLANE_KEY_CACHE_MAX_STALE_MS,
    negativeCacheTtlMs: e.DATA_PLANE_NEGATIVE_CACHE_TTL_MS,
    keyCacheMaxEntries: e.DATA_PLANE_KEY_CACHE_MAX_ENTRIES,
    catalogRefreshMs: e.DATA_PLANE_CATALOG_REFRESH_MS,
    upstreamTimeoutMs: e.DATA_PLANE_UPSTREAM_TIMEOUT_MS,
    upstreamTimeoutMinMs: e.DATA_PLANE_UPSTREAM_TIMEOUT_MIN_MS,
    clientGoneDrainMs: e.DATA_PLANE_CLIENT_GONE_DRAIN_MS,
    upstreamTimeoutMaxMs: e.DATA_PLANE_UPSTREAM_TIMEOUT_MAX_MS,
    bodyLimitBytes: e.DATA_PLANE_BODY_LIMIT_BYTES,
    upstreamRetries: e.DATA_PLANE_UPSTREAM_RETRIES,
    retryBaseMs: e.DATA_PLANE_RETRY_BASE_MS,
    retryMaxMs: e.DATA_PLANE_RETRY_MAX_MS,
    breakerThreshold: e.DATA_PLANE_BREAKER_THRESHOLD,
    breakerCooldownMs: e.DATA_PLANE_BREAKER_COOLDOWN_MS,
    /** Body limit by route kind, bytes. */
    bodyLimits: bodyLimitsOf(e, e.DATA_PLANE_BODY_LIMIT_BYTES),
    contextPrecheck: ["true", "1", "on"].includes(e.DATA_PLANE_CONTEXT_PRECHECK),
    headersTimeoutMs: e.DATA_PLANE_HEADERS_TIMEOUT_MS,
    keepAliveTimeoutMs: e.DATA_PLANE_KEEP_ALIVE_TIMEOUT_MS,
    listenBacklog: e.DATA_PLANE_LISTEN_BACKLOG,
    rateLimitGossipMs: e.DATA_PLANE_RATE_LIMIT_GOSSIP_MS,
    rateLimitMaxKeys: e.DATA_PLANE_RATE_LIMIT_MAX_KEYS,
    /** Refusal records per key: tokens per second (0: none published), burst, keys tracked. */
    refusalRecords: { perSecond: e.DATA_PLANE_REFUSAL_RECORDS_PER_S, burst: e.DATA_PLANE_REFUSAL_RECORDS_BURST, maxKeys: e.DATA_PLANE_REFUSAL_RECORDS_MAX_KEYS },
    leaseChunkMinor: e.DATA_PLANE_LEASE_CHUNK_MINOR,
    leaseTtlMs: e.DATA_PLANE_LEASE_TTL_MS,
    leaseIdleMs: e.DATA_PLANE_LEASE_IDLE_MS,
    leaseMaxOrgs: e.DATA_PLANE_LEASE_MAX_ORGS,
    spoolDir: e.DATA_PLANE_SPOOL_DIR,
    spoolMaxEvents: e.DATA_PLANE_SPOOL_MAX_EVENTS,
    spoolLockStaleMs: e.DATA_PLANE_SPOOL_LOCK_STALE_MS,
    drainPushgatewayUrl: e.DATA_PLANE_DRAIN_PUSHGATEWAY_URL,
    shutdownReplayMs: e.DATA_PLANE_SHUTDOWN_REPLAY_MS,
    shutdownPauseMs: e.DATA_PLANE_SHUTDOWN_PAUSE_MS,
    shutdownStreamDrainMs: e.DATA_PLANE_SHUTDOWN_STREAM_DRAIN_MS,
    publishTimeoutMs: e.DATA_PLANE_PUBLISH_TIMEOUT_MS,
    /** Most usage events per JetStream message (1 = no batch messages). */
    usageBatchEvents: e.DATA_PLANE_USAGE_BATCH_EVENTS,
    usageWaitMs: e.DATA_PLANE_USAGE_WAIT_MS,
    usageSigningKey: e.DATA_PLANE_USAGE_SIGNING_KEY ? usageKey(e.DATA_PLANE_USAGE_SIGNING_KEY) : undefined,
    /** Span export (the standard OTEL_* variables); undefined: no tracing at all. */
    tracing: otel.tracing,
    /** Stored Responses: retention (ms), bucket replicas, largest record (bytes). */
    holdTrancheTokens: e.DATA_PLANE_HOLD_TRANCHE_TOKENS,
    holdTrancheCheckMs: e.DATA_PLANE_HOLD_TRANCHE_CHECK_MS,
    sessionPins: { enabled: ["true", "1", "on"].includes(e.DATA_PLANE_SESSION_PINS), maxEntries: e.DATA_PLANE_SESSION_PINS_MAX, bucketMaxBytes: e.DATA_PLANE_SESSION_PINS_BUCKET_MAX_BYTES },
    responses: {
      retentionMs: e.DATA_PLANE_RESPONSES_RETENTION_HOURS * 3_600_000,
      replicas: e.DATA_PLANE_RESPONSES_REPLICAS,
      maxBytes: e.DATA_PLANE_RESPONSES_MAX_BYTES,
      bucketMaxBytes: e.DATA_PLANE_RESPONSES_BUCKET_MAX_BYTES,
      secret: e.DATA_PLANE_RESPONSES_SECRET ?? randomBytes(32).toString("base64url"),
      /** No DATA_PLANE_RESPONSES_SECRET: a key of this process's own (said in the log at start). */
      ownSecret: e.DATA_PLANE_RESPONSES_SECRET === undefined,
      plaintextBeforeMs: e.DATA_PLANE_RESPONSES_PLAINTEXT_BEFORE ? Date.parse(e.DATA_PLANE_RESPONSES_PLAINTEXT_BEFORE) : 0,
    },
    publicUrl: e.DATA_PLANE_PUBLIC_URL?.replace(/\/+$/, ""),
    video: {
      pollStaleMs: e.DATA_PLANE_VIDEO_POLL_STALE_MS,
      reconcileMs: e.DATA_PLANE_VIDEO_RECONCILE_MS,
      staleMs: e.DATA_PLANE_VIDEO_STALE_MS,
      claimMs: e.DATA_PLANE_VIDEO_CLAIM_MS,
      maxAgeMs: e.DATA_PLANE_VIDEO_MAX_AGE_MS,
      holdRenewMs,
      holdConcurrency: e.DATA_PLANE_VIDEO_HOLD_CONCURRENCY,
      refreshConcurrency: e.DATA_PLANE_VIDEO_REFRESH_CONCURRENCY,
    },
    mediaStaticHosts: e.DATA_PLANE_MEDIA_STATIC_HOSTS,
    mediaDnsTimeoutMs: e.DATA_PLANE_MEDIA_DNS_TIMEOUT_MS,
    /** The MCP gateway (docs/mcp.md): session-id key, upstream deadline, result bound, tool-list lifetime. */
    mcp: {
      sessionSecret: e.DATA_PLANE_MCP_SESSION_SECRET || randomBytes(32).toString("base64url"),
      timeoutMs: e.DATA_PLANE_MCP_TIMEOUT_MS,
      maxResultBytes: e.DATA_PLANE_MCP_MAX_RESULT_BYTES,
      toolsTtlMs: e.DATA_PLANE_MCP_TOOLS_TTL_MS,
      maxSessions: e.DATA_PLANE_MCP_MAX_SESSIONS,
      sessionIdleMs: e.DATA_PLANE_MCP_SESSION_IDLE_MS,
      allowLoopback: ["true", "1", "on"].includes(e.DATA_PLANE_MCP_ALLOW_LOOPBACK),
    },
    /** The Responses API over WebSocket: turns per connection, idle timeout, age, connections per key and per replica. */
    ws: {
      maxTurns: e.DATA_PLANE_WS_MAX_TURNS,
      idleTimeoutMs: e.DATA_PLANE_WS_IDLE_TIMEOUT_MS,
      maxAgeMs: e.DATA_PLANE_WS_MAX_AGE_MS,
      maxConnectionsPerKey: e.DATA_PLANE_WS_MAX_CONNECTIONS_PER_KEY,
      maxConnections: e.DATA_PLANE_WS_MAX_CONNECTIONS,
    },
    /** Resolves a provider credential by the name the catalog references. */
    resolveCredential,
  };
}
