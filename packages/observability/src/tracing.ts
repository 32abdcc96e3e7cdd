import {
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  context,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type SpanContext,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
} from "@opentelemetry/api";
import { AsyncLocalStorageContextManager } from "@opentelemetry/context-async-hooks";
import { W3CTraceContextPropagator, parseKeyPairsIntoRecord, parseTraceParent } from "@opentelemetry/core";
import { createRequire } from "node:module";
import type { OTLPTraceExporter as OtlpJsonExporter } from "@opentelemetry/exporter-trace-otlp-http";
import { resourceFromAttributes } from "@opentelemetry/resources";
import { AlwaysOffSampler, AlwaysOnSampler, BatchSpanProcessor, ParentBasedSampler, TraceIdRatioBasedSampler, TracerProvider, type Sampler, type SpanExporter } from "@opentelemetry/sdk-trace";

export { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, trace, parseTraceParent };
export type { Attributes, Context, Link, Span, SpanContext, Tracer };

const SAMPLERS = ["always_on", "always_off", "traceidratio", "parentbased_always_on", "parentbased_always_off", "parentbased_traceidratio"] as const;

/** Where and how a service exports spans (the standard OTEL_* variables, read by tracingFromEnv). */
export interface TracingConfig {
  /** OTLP/HTTP traces URL (…/v1/traces). */
  url: string;
  protocol: "http/protobuf" | "http/json";
  /** Sent with every export (a collector's or vendor's API key: never logged). */
  headers: Record<string, string>;
  serviceName: string;
  resourceAttributes: Record<string, string>;
  sampler: (typeof SAMPLERS)[number];
  /** Ratio for the traceidratio samplers, 0-1. */
  samplerRatio: number;
  /** Delay between two exports, ms (OTEL_BSP_SCHEDULE_DELAY). */
  scheduleDelayMs: number;
  /** Spans buffered before new ones are dropped (OTEL_BSP_MAX_QUEUE_SIZE). */
  maxQueueSize: number;
  /** Deadline of one export, ms (OTEL_EXPORTER_OTLP_TRACES_TIMEOUT / OTEL_EXPORTER_OTLP_TIMEOUT). */
  exportTimeoutMs: number;
}

const nonNegative = (name: string, raw: string | undefined, def: number, problems: string[]): number => {
  if (raw === undefined || raw.trim() === "") return def;
  const v = Number(raw);
  if (!Number.isFinite(v) || v < 0) {
    problems.push(`${name}: not a non-negative number`);
    return def;
  }
  return v;
};

/**
 * Tracing from the standard OpenTelemetry variables, or undefined when no OTLP endpoint is set
 * (OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, or OTEL_EXPORTER_OTLP_ENDPOINT + /v1/traces), when
 * OTEL_TRACES_EXPORTER=none or when OTEL_SDK_DISABLED=true: then no tracer exists at all and the
 * request path does no tracing work. Only OTLP over HTTP is supported (protobuf, the default, or JSON).
 */
export function tracingFromEnv(env: Record<string, string | undefined>, defaultServiceName: string): { tracing: TracingConfig | undefined; problems: string[] } {
  const problems: string[] = [];
  const v = (name: string) => {
    const raw = env[name]?.trim();
    return raw ? raw : undefined;
  };
  if (v("OTEL_SDK_DISABLED")?.toLowerCase() === "true") return { tracing: undefined, problems };
  const exporter = v("OTEL_TRACES_EXPORTER")?.toLowerCase() ?? "otlp";
  if (exporter === "none") return { tracing: undefined, problems };
  if (exporter !== "otlp") problems.push(`OTEL_TRACES_EXPORTER: '${exporter}' is not supported (otlp or none)`);
  const base = v("OTEL_EXPORTER_OTLP_ENDPOINT");
  const url = v("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") ?? (base ? `${base.replace(/\/+$/, "")}/v1/traces` : undefined);
  if (!url) return { tracing: undefined, problems };
  if (!/^https?:\/\/[^/\s]+/i.test(url)) problems.push("OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT: an http:// or https:// URL");
  const protocol = v("OTEL_EXPORTER_OTLP_TRACES_PROTOCOL") ?? v("OTEL_EXPORTER_OTLP_PROTOCOL") ?? "http/protobuf";
  if (protocol !== "http/protobuf" && protocol !== "http/json") problems.push(`OTEL_EXPORTER_OTLP_PROTOCOL: '${protocol}' is not supported (http/protobuf or http/json; OTLP/gRPC is not)`);
  const sampler = (v("OTEL_TRACES_SAMPLER")?.toLowerCase() ?? "parentbased_always_on") as TracingConfig["sampler"];
  if (!SAMPLERS.includes(sampler)) problems.push(`OTEL_TRACES_SAMPLER: one of ${SAMPLERS.join(", ")}`);
  const samplerRatio = nonNegative("OTEL_TRACES_SAMPLER_ARG", v("OTEL_TRACES_SAMPLER_ARG"), 1, problems);
  if (samplerRatio > 1) problems.push("OTEL_TRACES_SAMPLER_ARG: a ratio between 0 and 1");
  const resourceAttributes = parseKeyPairsIntoRecord(v("OTEL_RESOURCE_ATTRIBUTES"));
  return {
    tracing: {
      url,
      protocol: protocol as TracingConfig["protocol"],
      headers: { ...parseKeyPairsIntoRecord(v("OTEL_EXPORTER_OTLP_HEADERS")), ...parseKeyPairsIntoRecord(v("OTEL_EXPORTER_OTLP_TRACES_HEADERS")) },
      serviceName: v("OTEL_SERVICE_NAME") ?? resourceAttributes["service.name"] ?? defaultServiceName,
      resourceAttributes,
      sampler,
      samplerRatio,
      scheduleDelayMs: nonNegative("OTEL_BSP_SCHEDULE_DELAY", v("OTEL_BSP_SCHEDULE_DELAY"), 5_000, problems),
      maxQueueSize: Math.max(1, nonNegative("OTEL_BSP_MAX_QUEUE_SIZE", v("OTEL_BSP_MAX_QUEUE_SIZE"), 2_048, problems)),
      exportTimeoutMs: nonNegative("OTEL_EXPORTER_OTLP_TIMEOUT", v("OTEL_EXPORTER_OTLP_TRACES_TIMEOUT") ?? v("OTEL_EXPORTER_OTLP_TIMEOUT"), 10_000, problems),
    },
    problems,
  };
}

function buildSampler(c: TracingConfig): Sampler {
  const ratio = new TraceIdRatioBasedSampler(c.samplerRatio);
  switch (c.sampler) {
    case "always_on":
      return new AlwaysOnSampler();
    case "always_off":
      return new AlwaysOffSampler();
    case "traceidratio":
      return ratio;
    case "parentbased_always_on":
      return new ParentBasedSampler({ root: new AlwaysOnSampler() });
    case "parentbased_always_off":
      return new ParentBasedSampler({ root: new AlwaysOffSampler() });
    case "parentbased_traceidratio":
      return new ParentBasedSampler({ root: ratio });
  }
}

/** A service's tracer, the W3C propagator it reads and writes `traceparent` with, and its exporter's shutdown. */
export interface Tracing {
  tracer: Tracer;
  propagator: TextMapPropagator;
  /** Exports what is buffered, then stops (on service stop). */
  shutdown(): Promise<void>;
}

/**
 * The async context (the active span) follows awaits through AsyncLocalStorage. The OpenTelemetry
 * API keeps one context manager per process: registered by the first service that traces, shared
 * by any other service in the same process (the tests run all three in one), never when none does.
 */
let contextManagerRegistered = false;

/**
 * The OTLP exporter class, loaded only when tracing is configured: the exporters (and the protobuf
 * code of the proto one) are about 12 MiB of resident memory a service without tracing never needs.
 * They only serialize finished spans, so their own copy of the API (the CommonJS build `require`
 * loads) is harmless.
 */
function otlpExporter(protocol: TracingConfig["protocol"]): typeof OtlpJsonExporter {
  const load = createRequire(import.meta.url);
  const pkg = protocol === "http/json" ? "@opentelemetry/exporter-trace-otlp-http" : "@opentelemetry/exporter-trace-otlp-proto";
  return (load(pkg) as { OTLPTraceExporter: typeof OtlpJsonExporter }).OTLPTraceExporter;
}

/**
 * Starts tracing for one service: its own tracer provider (service name as the resource, spans
 * batched to the OTLP endpoint; several services in one process keep their own names), not
 * registered as the global provider. Undefined config: undefined, nothing is started.
 */
export function startTracing(config: TracingConfig | undefined, overrides: { exporter?: SpanExporter } = {}): Tracing | undefined {
  if (!config) return undefined;
  if (!contextManagerRegistered) {
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    contextManagerRegistered = true;
  }
  const exporterOptions = { url: config.url, headers: config.headers, timeoutMillis: config.exportTimeoutMs };
  const exporter = overrides.exporter ?? new (otlpExporter(config.protocol))(exporterOptions);
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ ...config.resourceAttributes, "service.name": config.serviceName }),
    sampler: buildSampler(config),
    // A ledger batch links every event's trace (up to LEDGER_BATCH_MAX, 500 by default).
    spanLimits: { linkCountLimit: 1024 },
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        scheduledDelayMillis: config.scheduleDelayMs,
        maxQueueSize: config.maxQueueSize,
        maxExportBatchSize: Math.min(512, config.maxQueueSize),
        exportTimeoutMillis: config.exportTimeoutMs,
      }),
    ],
  });
  return {
    tracer: provider.getTracer(`@gateway/${config.serviceName}`),
    propagator: new W3CTraceContextPropagator(),
    shutdown: () => provider.shutdown().catch(() => undefined),
  };
}

/** Reads `traceparent`/`tracestate` from Node's lower-cased HTTP headers. */
export const httpHeaderGetter: TextMapGetter<Record<string, string | string[] | undefined>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => carrier[key],
};

/** The context whose parent is the span `traceparent` names (an event's), or undefined when it is absent or invalid. */
export function remoteParent(traceparent: string | undefined): Context | undefined {
  const sc = traceparent ? parseTraceParent(traceparent) : null;
  return sc ? trace.setSpanContext(ROOT_CONTEXT, { ...sc, isRemote: true }) : undefined;
}

/** `traceparent` of a span (version 00), to carry it where no propagator writes (an event's field). */
export function traceparentOf(span: Span): string {
  const sc = span.spanContext();
  return `00-${sc.traceId}-${sc.spanId}-0${(sc.traceFlags & 1).toString(16)}`;
}

/** Ends `span` as failed with `err` (its message, and its class or code as error.type). */
export function endWithError(span: Span, err: unknown): void {
  if (span.isRecording()) {
    const code = (err as { code?: unknown } | null)?.code;
    span.setAttribute("error.type", typeof code === "string" ? code : err instanceof Error ? err.constructor.name : "error");
    span.setStatus({ code: SpanStatusCode.ERROR, message: err instanceof Error ? err.message : String(err) });
  }
  span.end();
}
