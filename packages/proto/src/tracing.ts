import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, type Span, type TextMapGetter, type TextMapPropagator, type Tracer } from "@opentelemetry/api";
import * as grpc from "@grpc/grpc-js";
import { GatewayError } from "@gateway/errors";
import type { CallOptions, TypedClient } from "./index.js";
import type { MethodShape } from "./messages.js";

/** What a service traces with (@gateway/observability's Tracing). */
export interface GrpcTracing {
  tracer: Tracer;
  propagator: TextMapPropagator;
}

const metadataGetter: TextMapGetter<grpc.Metadata> = {
  keys: (md) => Object.keys(md.getMap()),
  get: (md, key) => {
    const values = md.get(key);
    return values.length === 0 ? undefined : values.map(String);
  },
};

const rpcAttributes = (path: string) => {
  const [service = "", method = ""] = path.replace(/^\//, "").split("/");
  return { "rpc.system": "grpc", "rpc.service": service, "rpc.method": method };
};

/**
 * The same client with every call in a CLIENT span (a child of the caller's active span) whose
 * W3C `traceparent` travels in the call's metadata, so the server's span continues the trace. A
 * call made outside any span (a background poll) is passed through untraced. Only wrapped when
 * tracing is on: without it the client is used as it is.
 */
export function tracedClient<M extends Record<string, MethodShape>>(client: TypedClient<M>, service: string, tracing: GrpcTracing): TypedClient<M> {
  const { tracer, propagator } = tracing;
  const out: Record<string, unknown> = { raw: client.raw, close: () => client.close() };
  for (const [method, fn] of Object.entries(client)) {
    if (method === "raw" || method === "close" || typeof fn !== "function") continue;
    out[method] = (request: unknown, opts: CallOptions = {}) => {
      // Background calls (catalog polls, lease renewals) start no trace of their own.
      if (!trace.getSpan(context.active())) return (fn as (r: unknown, o: CallOptions) => unknown)(request, opts);
      const span = tracer.startSpan(`${service}/${method}`, { kind: SpanKind.CLIENT, attributes: rpcAttributes(`${service}/${method}`) });
      const metadata: Record<string, string> = { ...opts.metadata };
      propagator.inject(trace.setSpan(context.active(), span), metadata, { set: (carrier, key, value) => ((carrier as Record<string, string>)[key] = value) });
      const result = (fn as (r: unknown, o: CallOptions) => unknown)(request, { ...opts, metadata });
      if (!(result instanceof Promise)) {
        // A server stream: the call is under way once iterated; the span marks its start only.
        span.end();
        return result;
      }
      return result.then(
        (value) => {
          span.end();
          return value;
        },
        (err: unknown) => {
          if (err instanceof GatewayError) span.setAttribute("error.type", err.code);
          span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
          span.end();
          throw err;
        },
      );
    };
  }
  return out as TypedClient<M>;
}

/**
 * A server interceptor that puts every call in a SERVER span, the child of the caller's span when
 * its metadata carries a `traceparent` (a new trace otherwise), with the gRPC status it ended with.
 */
export function tracingServerInterceptor(tracing: GrpcTracing): grpc.ServerInterceptor {
  const { tracer, propagator } = tracing;
  return (methodDescriptor, call) => {
    let span: Span | undefined;
    const end = (code: grpc.status, details?: string) => {
      if (!span) return;
      span.setAttribute("rpc.grpc.status_code", code);
      if (code !== grpc.status.OK) span.setStatus({ code: SpanStatusCode.ERROR, message: details ?? grpc.status[code] });
      span.end();
      span = undefined;
    };
    return new grpc.ServerInterceptingCall(call, {
      start: (next) =>
        next({
          onReceiveMetadata: (metadata, nextMetadata) => {
            const parent = propagator.extract(ROOT_CONTEXT, metadata, metadataGetter);
            span = tracer.startSpan(methodDescriptor.path.replace(/^\//, ""), { kind: SpanKind.SERVER, attributes: rpcAttributes(methodDescriptor.path) }, parent);
            nextMetadata(metadata);
          },
          onCancel: () => end(grpc.status.CANCELLED, "cancelled by the caller"),
        }),
      sendStatus: (status, next) => {
        end(status.code, status.details);
        next(status);
      },
    });
  };
}
