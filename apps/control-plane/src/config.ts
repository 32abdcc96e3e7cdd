import { callerTokenProblems, serverTlsProblems, type CallerTokens, type ServerTlsFiles } from "@gateway/proto";
import { tracingFromEnv, type TracingConfig } from "@gateway/observability";
import { z } from "zod";

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);
/** A comma-separated list of caller tokens, each at least 16 characters. */
const tokens = (message: string) =>
  z
    .string()
    .transform((v) => v.split(",").map((t) => t.trim()).filter(Boolean))
    .pipe(z.array(z.string().min(16, message)).min(1, message));

const Schema = z.object({
  CONTROL_PLANE_DATABASE_URL: z.string().min(1, "required: a PostgreSQL connection string"),
  CONTROL_PLANE_DB_SCHEMA: z.string().regex(/^[a-z_][a-z0-9_]*$/).default("control"),
  CONTROL_PLANE_NATS_URL: z.string().default("nats://127.0.0.1:4222"),
  CONTROL_PLANE_GRPC_HOST: z.string().default("127.0.0.1"),
  CONTROL_PLANE_GRPC_PORT: int(50051),
  CONTROL_PLANE_OPS_HOST: z.string().default("127.0.0.1"),
  CONTROL_PLANE_OPS_PORT: int(9464),
  /** Tokens of the admin identity (every method); comma-separated to accept several while rotating. */
  CONTROL_PLANE_ADMIN_TOKEN: tokens("required: at least 16 characters each"),
  /** Tokens of the data-plane identity (ControlService only); unset = the data-plane is refused. */
  CONTROL_PLANE_DATA_PLANE_TOKEN: tokens("at least 16 characters each").optional(),
  /** Upgrade window only: callers with no credentials at all are taken as this identity (never admin). */
  CONTROL_PLANE_UNAUTHENTICATED_CALLERS: z.enum(["data-plane"], { error: "the only identity callers without credentials may be taken as is data-plane" }).optional(),
  /** PEM server certificate and key: gRPC over TLS. */
  CONTROL_PLANE_TLS_CERT_FILE: z.string().min(1).optional(),
  CONTROL_PLANE_TLS_KEY_FILE: z.string().min(1).optional(),
  /** PEM CA bundle: with it, every caller must present a certificate it signed (mTLS). */
  CONTROL_PLANE_TLS_CLIENT_CA_FILE: z.string().min(1).optional(),
  CONTROL_PLANE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CONTROL_PLANE_DB_POOL_MAX: int(10, 1),
});

export interface ControlPlaneConfig {
  databaseUrl: string;
  dbSchema: string;
  natsUrl: string;
  grpcHost: string;
  grpcPort: number;
  opsHost: string;
  opsPort: number;
  /** Bearer tokens per caller identity (several while rotating). */
  callerTokens: CallerTokens;
  /** The identity callers without any credentials are taken as (a rolling upgrade from a release without them); undefined: refused. */
  unauthenticatedCallers: "data-plane" | undefined;
  /** gRPC over TLS (mTLS with a client CA); plaintext when undefined. */
  tls: ServerTlsFiles | undefined;
  logLevel: z.infer<typeof Schema>["CONTROL_PLANE_LOG_LEVEL"];
  dbPoolMax: number;
  /** Span export (the standard OTEL_* variables); undefined: no tracing at all. */
  tracing: TracingConfig | undefined;
}

/** Reads the CONTROL_PLANE_* variables; throws one error listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): ControlPlaneConfig {
  const parsed = Schema.safeParse(env);
  const problems = [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)), ...serverTlsProblems("CONTROL_PLANE_", env)];
  if (parsed.success) {
    const { CONTROL_PLANE_ADMIN_TOKEN: admin, CONTROL_PLANE_DATA_PLANE_TOKEN: dataPlane } = parsed.data;
    problems.push(...callerTokenProblems({ admin, "data-plane": dataPlane }, { admin: "CONTROL_PLANE_ADMIN_TOKEN", "data-plane": "CONTROL_PLANE_DATA_PLANE_TOKEN" }));
  }
  const otel = tracingFromEnv(env, "control-plane");
  problems.push(...otel.problems);
  if (!parsed.success || problems.length > 0) {
    throw new Error(`invalid control-plane configuration:\n  ${problems.join("\n  ")}`);
  }
  const e = parsed.data;
  return {
    databaseUrl: e.CONTROL_PLANE_DATABASE_URL,
    dbSchema: e.CONTROL_PLANE_DB_SCHEMA,
    natsUrl: e.CONTROL_PLANE_NATS_URL,
    grpcHost: e.CONTROL_PLANE_GRPC_HOST,
    grpcPort: e.CONTROL_PLANE_GRPC_PORT,
    opsHost: e.CONTROL_PLANE_OPS_HOST,
    opsPort: e.CONTROL_PLANE_OPS_PORT,
    callerTokens: { admin: e.CONTROL_PLANE_ADMIN_TOKEN, "data-plane": e.CONTROL_PLANE_DATA_PLANE_TOKEN ?? [] },
    unauthenticatedCallers: e.CONTROL_PLANE_UNAUTHENTICATED_CALLERS,
    tls: e.CONTROL_PLANE_TLS_CERT_FILE && e.CONTROL_PLANE_TLS_KEY_FILE ? { certFile: e.CONTROL_PLANE_TLS_CERT_FILE, keyFile: e.CONTROL_PLANE_TLS_KEY_FILE, clientCaFile: e.CONTROL_PLANE_TLS_CLIENT_CA_FILE } : undefined,
    logLevel: e.CONTROL_PLANE_LOG_LEVEL,
    dbPoolMax: e.CONTROL_PLANE_DB_POOL_MAX,
    tracing: otel.tracing,
  };
}
