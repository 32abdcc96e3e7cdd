import { natsCredentialsFromEnv, type NatsCredentials } from "@gateway/nats";
import { serverCallerSettings, type ServerCallerSettings } from "@gateway/proto";
import { tracingFromEnv, type TracingConfig } from "@gateway/observability";
import { z } from "zod";

const int = (def: number, min = 0) => z.coerce.number().int().min(min).default(def);

const Schema = z.object({
  CONTROL_PLANE_DATABASE_URL: z.string().min(1, "required: a PostgreSQL connection string"),
  CONTROL_PLANE_DB_SCHEMA: z
    .string()
    .regex(/^[a-z_][a-z0-9_]*$/)
    .default("control"),
  CONTROL_PLANE_NATS_URL: z.string().default("nats://127.0.0.1:4222"),
  // CONTROL_PLANE_NATS_USER and CONTROL_PLANE_NATS_PASSWORD: natsCredentialsFromEnv.
  CONTROL_PLANE_GRPC_HOST: z.string().default("127.0.0.1"),
  CONTROL_PLANE_GRPC_PORT: int(50051),
  CONTROL_PLANE_OPS_HOST: z.string().default("127.0.0.1"),
  CONTROL_PLANE_OPS_PORT: int(9464),
  // CONTROL_PLANE_ADMIN_TOKEN, _DATA_PLANE_TOKEN, _UNAUTHENTICATED_CALLERS and _TLS_*: serverCallerSettings.
  CONTROL_PLANE_LOG_LEVEL: z.enum(["fatal", "error", "warn", "info", "debug", "trace", "silent"]).default("info"),
  CONTROL_PLANE_DB_POOL_MAX: int(10, 1),
});

export interface ControlPlaneConfig extends ServerCallerSettings {
  databaseUrl: string;
  dbSchema: string;
  natsUrl: string;
  /** The control-plane's NATS user (its permissions: docs/operations.md); undefined: none sent. */
  natsCredentials: NatsCredentials | undefined;
  grpcHost: string;
  grpcPort: number;
  opsHost: string;
  opsPort: number;
  logLevel: z.infer<typeof Schema>["CONTROL_PLANE_LOG_LEVEL"];
  dbPoolMax: number;
  /** Span export (the standard OTEL_* variables); undefined: no tracing at all. */
  tracing: TracingConfig | undefined;
}

/** Reads the CONTROL_PLANE_* variables; throws one error listing every problem. */
export function loadConfig(env: Record<string, string | undefined>): ControlPlaneConfig {
  const parsed = Schema.safeParse(env);
  const callers = serverCallerSettings("CONTROL_PLANE_", env);
  const nats = natsCredentialsFromEnv("CONTROL_PLANE_", env);
  const problems = [...(parsed.success ? [] : parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`)), ...callers.problems, ...nats.problems];
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
    natsCredentials: nats.credentials,
    grpcHost: e.CONTROL_PLANE_GRPC_HOST,
    grpcPort: e.CONTROL_PLANE_GRPC_PORT,
    opsHost: e.CONTROL_PLANE_OPS_HOST,
    opsPort: e.CONTROL_PLANE_OPS_PORT,
    ...callers.settings,
    logLevel: e.CONTROL_PLANE_LOG_LEVEL,
    dbPoolMax: e.CONTROL_PLANE_DB_POOL_MAX,
    tracing: otel.tracing,
  };
}
