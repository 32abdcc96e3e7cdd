import { describe, expect, it } from "vitest";
import { remoteParent, startTracing, trace, traceparentOf, tracingFromEnv } from "./tracing.js";

describe("tracingFromEnv", () => {
  it("is off without an OTLP endpoint, with OTEL_TRACES_EXPORTER=none and with OTEL_SDK_DISABLED", () => {
    expect(tracingFromEnv({}, "ledger")).toEqual({ tracing: undefined, problems: [] });
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_TRACES_EXPORTER: "none" }, "ledger").tracing).toBeUndefined();
    expect(tracingFromEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318", OTEL_SDK_DISABLED: "true" }, "ledger").tracing).toBeUndefined();
    expect(startTracing(undefined)).toBeUndefined();
  });

  it("reads the standard variables: the traces path appended to the base endpoint, protobuf by default, parent-based sampling", () => {
    const { tracing, problems } = tracingFromEnv(
      { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/", OTEL_EXPORTER_OTLP_HEADERS: "x-api-key=abc,team=gw", OTEL_RESOURCE_ATTRIBUTES: "deployment.environment=prod" },
      "data-plane",
    );
    expect(problems).toEqual([]);
    expect(tracing).toMatchObject({
      url: "http://collector:4318/v1/traces",
      protocol: "http/protobuf",
      headers: { "x-api-key": "abc", team: "gw" },
      serviceName: "data-plane",
      resourceAttributes: { "deployment.environment": "prod" },
      sampler: "parentbased_always_on",
    });
    const traces = tracingFromEnv(
      {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://vendor/api/traces",
        OTEL_EXPORTER_OTLP_PROTOCOL: "http/json",
        OTEL_SERVICE_NAME: "gw-ledger-eu",
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0.1",
      },
      "ledger",
    ).tracing;
    expect(traces).toMatchObject({ url: "https://vendor/api/traces", protocol: "http/json", serviceName: "gw-ledger-eu", sampler: "parentbased_traceidratio", samplerRatio: 0.1 });
  });

  it("names every problem at once", () => {
    const { problems } = tracingFromEnv(
      { OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4317", OTEL_EXPORTER_OTLP_PROTOCOL: "grpc", OTEL_TRACES_SAMPLER: "sometimes", OTEL_TRACES_SAMPLER_ARG: "2", OTEL_TRACES_EXPORTER: "zipkin" },
      "x",
    );
    expect(problems.map((p) => p.split(":")[0])).toEqual([
      "OTEL_TRACES_EXPORTER",
      "OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT",
      "OTEL_EXPORTER_OTLP_PROTOCOL",
      "OTEL_TRACES_SAMPLER",
      "OTEL_TRACES_SAMPLER_ARG",
    ]);
  });
});

describe("traceparent in an event", () => {
  it("round-trips a span's context; an invalid value is no parent", () => {
    const tp = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";
    const parent = remoteParent(tp)!;
    const span = trace.wrapSpanContext(trace.getSpanContext(parent)!);
    expect(traceparentOf(span)).toBe(tp);
    expect(remoteParent("00-garbage")).toBeUndefined();
    expect(remoteParent(undefined)).toBeUndefined();
  });
});
