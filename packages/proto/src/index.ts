import { fileURLToPath } from "node:url";
import * as grpc from "@grpc/grpc-js";
import * as protoLoader from "@grpc/proto-loader";
import { ERROR_CONTEXT_METADATA, GatewayError, GrpcStatus, encodeErrorContext, fromGrpcDetails, type ErrorCode } from "@gateway/errors";
import type { AdminServiceMethods, ControlServiceMethods, HealthCheckResponseInput, HealthMethods, LedgerServiceMethods, MethodShape } from "./messages.js";

export * from "./messages.js";
export * from "./caller-auth.js";
export * from "./catalog.js";
export * from "./top-up-grant.js";
export { grpc };

/**
 * The gRPC contracts, shipped inside this package (the build copies the repository's proto/ to
 * dist/proto): found beside the code wherever the package is installed, a `pnpm deploy` layout included.
 */
export const PROTO_ROOT = fileURLToPath(new URL("./proto", import.meta.url));

export const LOADER_OPTIONS: protoLoader.Options = {
  keepCase: true,
  longs: Number,
  enums: String,
  defaults: true,
  arrays: true,
  oneofs: true,
  includeDirs: [PROTO_ROOT],
};

type Methods = Record<string, MethodShape>;

export interface ServiceDef<M extends Methods> {
  readonly name: string;
  readonly definition: grpc.ServiceDefinition;
  /** Phantom, for typing only. */
  readonly _methods?: M;
}

let cache: grpc.GrpcObject | undefined;
function loadAll(): grpc.GrpcObject {
  if (!cache) {
    const def = protoLoader.loadSync(["gateway/control/v1/control.proto", "gateway/ledger/v1/ledger.proto", "grpc/health/v1/health.proto"], LOADER_OPTIONS);
    cache = grpc.loadPackageDefinition(def);
  }
  return cache;
}

function service<M extends Methods>(path: string): ServiceDef<M> {
  let node: unknown = loadAll();
  for (const part of path.split(".")) node = (node as Record<string, unknown>)[part];
  const ctor = node as grpc.ServiceClientConstructor;
  return { name: path, definition: ctor.service };
}

/** Every service of the gateway's own contracts (package `gateway.*`; grpc.health is not one), e.g. for sweeping tests. */
export function gatewayServices(): ServiceDef<Methods>[] {
  const found: ServiceDef<Methods>[] = [];
  const walk = (node: grpc.GrpcObject, path: string) => {
    for (const [name, child] of Object.entries(node)) {
      if (typeof child === "function" && "service" in child) found.push({ name: `${path}.${name}`, definition: (child as grpc.ServiceClientConstructor).service });
      else if (typeof child === "object" && child !== null && !("format" in child)) walk(child as grpc.GrpcObject, `${path}.${name}`);
    }
  };
  walk(loadAll().gateway as grpc.GrpcObject, "gateway");
  return found;
}

export const controlService = (): ServiceDef<ControlServiceMethods> => service("gateway.control.v1.ControlService");
export const adminService = (): ServiceDef<AdminServiceMethods> => service("gateway.control.v1.AdminService");
export const ledgerService = (): ServiceDef<LedgerServiceMethods> => service("gateway.ledger.v1.LedgerService");

export const healthService = (): ServiceDef<HealthMethods> => service("grpc.health.v1.Health");

/** grpc.health.v1 Check: SERVING while `ready()` holds, for the server ("") and each named service. */
export function addHealthService(server: grpc.Server, services: string[], ready: () => boolean): void {
  const known = new Set(["", ...services]);
  addService(server, healthService(), {
    Check: async (req): Promise<HealthCheckResponseInput> => {
      if (!known.has(req.service)) throw new GatewayError("not_found", `unknown service ${req.service}`);
      return { status: ready() ? "SERVING" : "NOT_SERVING" };
    },
  });
}

/**
 * A typed promise client: every call takes a deadline, and errors come back as GatewayError. A
 * server-streaming method returns an async iterable of its messages: the next message is asked for
 * only when the reader takes one (HTTP/2 flow control holds the server back), and a reader that
 * stops early cancels the call.
 */
export type TypedClient<M extends Methods> = {
  [K in keyof M]: M[K]["stream"] extends true ? (request: M[K]["send"], opts?: CallOptions) => AsyncIterable<M[K]["reply"]> : (request: M[K]["send"], opts?: CallOptions) => Promise<M[K]["reply"]>;
} & { close(): void; raw: grpc.Client };

export interface CallOptions {
  /** Deadline for this call in milliseconds (default: the client's). */
  timeoutMs?: number;
  metadata?: Record<string, string>;
  /** A server stream only: cancels the call when it aborts (a reader waiting for the next message stops at once). */
  signal?: AbortSignal;
}

export interface ClientOptions {
  /** Default per-call deadline, milliseconds. */
  timeoutMs: number;
  /** Metadata sent with every call (e.g. the caller token: {@link bearer}). */
  metadata?: Record<string, string>;
  /** Channel credentials (see channelCredentials); insecure without. */
  credentials?: grpc.ChannelCredentials;
  /** Rewrites every error before the caller sees it (a service turning a refusal of its own credentials into an outage). */
  mapError?: (err: GatewayError) => GatewayError;
}

const GRPC_TO_CODE: Partial<Record<number, ErrorCode>> = {
  [GrpcStatus.INVALID_ARGUMENT]: "invalid_request",
  [GrpcStatus.NOT_FOUND]: "not_found",
  [GrpcStatus.ALREADY_EXISTS]: "already_exists",
  [GrpcStatus.ABORTED]: "conflict",
  [GrpcStatus.PERMISSION_DENIED]: "caller_not_allowed",
  [GrpcStatus.UNAUTHENTICATED]: "unauthenticated_caller",
  [GrpcStatus.FAILED_PRECONDITION]: "invalid_request",
  [GrpcStatus.RESOURCE_EXHAUSTED]: "rate_limit_exceeded",
};

/** Rebuilds a GatewayError from a gRPC error; transport failures become service_unavailable. */
export function errorFromGrpc(err: grpc.ServiceError, peer: string): GatewayError {
  const fallback = GRPC_TO_CODE[err.code];
  const context = err.metadata?.get(ERROR_CONTEXT_METADATA)[0];
  if (fallback) return fromGrpcDetails(err.details ?? "", fallback, typeof context === "string" ? context : undefined);
  if (err.code === GrpcStatus.UNAVAILABLE && err.details?.startsWith("service_unavailable:")) {
    return fromGrpcDetails(err.details, "service_unavailable", typeof context === "string" ? context : undefined);
  }
  if (err.code === GrpcStatus.DEADLINE_EXCEEDED || err.code === GrpcStatus.UNAVAILABLE || err.code === GrpcStatus.CANCELLED) {
    // What callers see: which part of the gateway is away, not its internals.
    const what = peer.includes("Ledger") ? "Billing" : peer.includes("Admin") || peer.includes("Control") ? "Key and model configuration" : "A gateway service";
    return new GatewayError("service_unavailable", `${what} is temporarily unavailable; please retry.`, { retry_after_s: 1 });
  }
  return new GatewayError("internal_error", `${peer} failed: ${err.details || grpc.status[err.code]}`);
}

export function createClient<M extends Methods>(def: ServiceDef<M>, address: string, options: ClientOptions): TypedClient<M> {
  const Ctor = grpc.makeGenericClientConstructor(def.definition, def.name);
  const raw = new Ctor(address, options.credentials ?? grpc.credentials.createInsecure(), {
    "grpc.keepalive_time_ms": 30_000,
    "grpc.keepalive_timeout_ms": 5_000,
    "grpc.initial_reconnect_backoff_ms": 200,
    "grpc.max_reconnect_backoff_ms": 2_000,
  });
  const client: Record<string, unknown> = { raw, close: () => raw.close() };
  for (const method of Object.keys(def.definition)) {
    // biome-ignore lint/complexity/noBannedTypes: grpc-js generates the methods at run time; any callable fits.
    const fn = (raw as unknown as Record<string, Function>)[method]!.bind(raw);
    const callArgs = (opts: CallOptions) => {
      const md = new grpc.Metadata();
      for (const [k, v] of Object.entries({ ...options.metadata, ...opts.metadata })) md.set(k, v);
      return [md, { deadline: Date.now() + (opts.timeoutMs ?? options.timeoutMs) }] as const;
    };
    if (def.definition[method]!.responseStream) {
      client[method] = (request: unknown, opts: CallOptions = {}) =>
        readServerStream(() => fn(request, ...callArgs(opts)) as grpc.ClientReadableStream<unknown>, def.name, options.mapError, opts.signal);
      continue;
    }
    client[method] = (request: unknown, opts: CallOptions = {}) =>
      new Promise((resolve, reject) => {
        fn(request, ...callArgs(opts), (err: grpc.ServiceError | null, res: unknown) => {
          if (err) {
            const e = errorFromGrpc(err, def.name);
            reject(options.mapError ? options.mapError(e) : e);
          } else resolve(res);
        });
      });
  }
  return client as TypedClient<M>;
}

/** The call starts when the iteration does; errors come back as GatewayError. */
async function* readServerStream(start: () => grpc.ClientReadableStream<unknown>, peer: string, mapError = (e: GatewayError) => e, signal?: AbortSignal): AsyncGenerator<unknown> {
  const call = start();
  const cancel = () => call.cancel();
  signal?.addEventListener("abort", cancel, { once: true });
  let ended = false;
  try {
    for await (const message of call) yield message;
    ended = true;
  } catch (err) {
    ended = true;
    throw typeof (err as grpc.ServiceError).code === "number" ? mapError(errorFromGrpc(err as grpc.ServiceError, peer)) : err;
  } finally {
    signal?.removeEventListener("abort", cancel);
    // The reader stopped before the end (break, an error of its own): tell the server.
    if (!ended) call.cancel();
  }
}

/**
 * Server-side handlers: async functions; a thrown GatewayError becomes its gRPC status. A
 * server-streaming method's handler yields its messages: the next is asked for once the one before
 * the last has gone to the transport (two in flight at most), and when the caller cancels, the
 * iteration is ended (its finally blocks run) instead of being drained.
 */
export type Handlers<M extends Methods> = {
  [K in keyof M]: M[K]["stream"] extends true
    ? (request: M[K]["received"], call: grpc.ServerWritableStream<M[K]["received"], M[K]["answer"]>) => AsyncIterable<M[K]["answer"]>
    : (request: M[K]["received"], call: grpc.ServerUnaryCall<M[K]["received"], M[K]["answer"]>) => Promise<M[K]["answer"]>;
};

export interface ServeOptions {
  /** Called for errors that are not GatewayErrors (bugs), before answering INTERNAL. */
  onUnexpected?: (err: unknown, method: string) => void;
  /**
   * Names an expected failure that is not a GatewayError (a database that is restarting) so the
   * caller gets a status it can act on (UNAVAILABLE: retry, serve from cache) instead of INTERNAL;
   * undefined leaves the error a bug.
   */
  translate?: (err: unknown) => GatewayError | undefined;
  /** Checked before every call; throw a GatewayError to refuse (callerGuard). */
  guard?: (metadata: grpc.Metadata, method: string) => void;
}

export function addService<M extends Methods>(server: grpc.Server, def: ServiceDef<M>, handlers: Handlers<M>, opts: ServeOptions = {}): void {
  const impl: grpc.UntypedServiceImplementation = {};
  const toStatus = (err: unknown, method: string): grpc.ServiceError => {
    const known = err instanceof GatewayError ? err : opts.translate?.(err);
    if (!known) {
      opts.onUnexpected?.(err, method);
      return { code: GrpcStatus.INTERNAL, details: "internal_error:internal error" } as grpc.ServiceError;
    }
    const status: Partial<grpc.StatusObject> = { code: known.grpcStatus, details: `${known.code}:${known.message}` };
    const context = encodeErrorContext(known.context);
    if (context) {
      status.metadata = new grpc.Metadata();
      status.metadata.set(ERROR_CONTEXT_METADATA, context);
    }
    return status as grpc.ServiceError;
  };
  for (const method of Object.keys(def.definition)) {
    const handler = handlers[method as keyof M];
    if (def.definition[method]!.responseStream) {
      impl[method] = (call: grpc.ServerWritableStream<unknown, unknown>) => {
        const cancelled = new Promise<void>((resolve) => call.once("cancelled", resolve));
        const run = async () => {
          opts.guard?.(call.metadata, method);
          // At most two messages in flight: the next one is produced once the one before the last
          // has gone to the transport (which holds it while the caller's flow-control window is
          // full), so a slow reader keeps the handler waiting instead of filling the call's buffer.
          let previous: Promise<void> | undefined;
          for await (const message of (handler as (req: unknown, call: unknown) => AsyncIterable<unknown>)(call.request, call)) {
            if (call.cancelled) return;
            const sent = new Promise<void>((resolve) => call.write(message, () => resolve()));
            if (previous) await Promise.race([previous, cancelled]);
            previous = sent;
            // Cancelled while waiting: stop here rather than produce another message for nobody.
            if (call.cancelled) return;
          }
          if (!call.cancelled) call.end();
        };
        run().catch((err: unknown) => {
          if (!call.cancelled) call.emit("error", toStatus(err, method));
        });
      };
      continue;
    }
    impl[method] = (call: grpc.ServerUnaryCall<unknown, unknown>, callback: grpc.sendUnaryData<unknown>) => {
      const run = async () => {
        opts.guard?.(call.metadata, method);
        return (handler as (req: unknown, call: unknown) => Promise<unknown>)(call.request, call);
      };
      run().then(
        (res) => callback(null, res),
        (err: unknown) => callback(toStatus(err, method), null),
      );
    };
  }
  server.addService(def.definition, impl);
}

/** Binds a server on host:port (port 0 = any free port) and returns the bound port; insecure without `credentials`. */
export function bindServer(server: grpc.Server, host: string, port: number, credentials?: grpc.ServerCredentials): Promise<number> {
  return new Promise((resolve, reject) => {
    server.bindAsync(`${host}:${port}`, credentials ?? grpc.ServerCredentials.createInsecure(), (err, bound) => (err ? reject(err) : resolve(bound)));
  });
}

export function shutdownServer(server: grpc.Server, graceMs = 5_000): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      server.forceShutdown();
      resolve();
    }, graceMs);
    server.tryShutdown(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
