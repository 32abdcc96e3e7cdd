import { randomBytes } from "node:crypto";
import OpenAI from "openai";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";
import { startOtlpReceiver, type ReceivedSpan } from "../support/otlp.ts";

const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

let stack: Stack;
let receiver: Awaited<ReturnType<typeof startOtlpReceiver>>;

beforeAll(async () => {
  receiver = await startOtlpReceiver();
  stack = await startStack("tracing", {
    // Every service exports to the receiver, as each would to a collector in a cluster.
    serviceEnv: { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_EXPORTER_OTLP_PROTOCOL: "http/json", OTEL_BSP_SCHEDULE_DELAY: "50" },
    dataPlaneEnv: { DATA_PLANE_UPSTREAM_RETRIES: "1", DATA_PLANE_RETRY_BASE_MS: "20" },
  });
  // Two deployments: the first fails while the fake upstream's flaky counter says so.
  await stack.applyCatalog({
    models: [
      {
        id: "gw-traced",
        routes: ["chat"],
        context_window: 8000,
        max_output_tokens: 100,
        input_price_minor_per_mtok: 1,
        output_price_minor_per_mtok: 1,
        deployments: [
          { provider: "fake", upstream_model: "fake-chat", priority: 0 },
          { provider: "fake-backup", upstream_model: "fake-chat", priority: 1 },
        ],
      },
    ],
  });
});
afterAll(async () => {
  await stack?.stop();
  await receiver?.close();
});

const hex = (bytes: number) => randomBytes(bytes).toString("hex");
const inTrace = (traceId: string) => receiver.spans.filter((s) => s.traceId === traceId);
const one = (spans: ReceivedSpan[], name: string, service?: string) => {
  const found = spans.filter((s) => s.name === name && (!service || s.service === service));
  expect(found, `${name} ${service ?? ""}`).toHaveLength(1);
  return found[0]!;
};

describe("tracing across the three services", () => {
  it("continues the caller's traceparent through the pipeline, every upstream attempt, the control-plane, the ledger's RPCs and its apply of the usage", async () => {
    // A fresh key and organization: the data-plane has no cached key context or credit lease for them.
    const org = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-traced"] });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
    const traceId = hex(16);
    const callerSpan = hex(8);
    const tag = `trace-${hex(4)}`;
    const { data, response } = await client.chat.completions
      .create({ model: "gw-traced", messages: [{ role: "user", content: `hello [[fake:flaky=${tag}:2]]` }] }, { headers: { traceparent: `00-${traceId}-${callerSpan}-01` } })
      .withResponse();
    expect(data.choices[0]!.message.content).toBe("Echo: hello");
    expect(response.headers.get("x-gateway-provider")).toBe("fake-backup");
    const requestId = response.headers.get("x-request-id")!;

    const spans = await eventually(
      () => {
        const s = inTrace(traceId);
        return s.some((x) => x.name === "ledger.usage.apply") && s.some((x) => x.kind === SERVER && x.service === "data-plane") ? s : undefined;
      },
      10_000,
      "spans of the traced request from every service",
    );

    // The data-plane's request span is the caller's child and names the request.
    const root = one(spans, "POST /v1/chat/completions", "data-plane");
    expect(root.parentSpanId).toBe(callerSpan);
    expect(root.kind).toBe(SERVER);
    expect(root.attributes["gateway.request_id"]).toBe(requestId);
    expect(root.attributes["http.response.status_code"]).toBe(200);
    expect(root.attributes["gateway.org_id"]).toBe(org.orgId);

    // A span per pipeline stage, under the request.
    const stages = ["gateway.authenticate", "gateway.validate", "gateway.admission", "gateway.serve", "gateway.answer"];
    for (const name of stages) expect(one(spans, name).parentSpanId).toBe(root.spanId);
    const admission = one(spans, "gateway.admission");
    for (const name of ["gateway.resolve_model", "gateway.plan", "gateway.rate_limit", "gateway.credits.hold"]) expect(one(spans, name).parentSpanId).toBe(admission.spanId);
    expect(one(spans, "gateway.authenticate").attributes["gateway.key_cache"]).toBe("miss");

    // Each upstream attempt: two failures on the first deployment (the first try and its retry), then the fallback.
    const serve = one(spans, "gateway.serve");
    const attempts = spans.filter((s) => s.name === "gateway.upstream_attempt").sort((a, b) => Number(a.attributes["gateway.attempt"]) - Number(b.attributes["gateway.attempt"]));
    expect(
      attempts.map((a) => [
        a.attributes["gateway.provider"],
        a.attributes["http.response.status_code"],
        a.attributes["gateway.retry"],
        a.attributes["gateway.fallback"],
        a.attributes["gateway.outcome"],
      ]),
    ).toEqual([
      ["fake", 503, 0, 0, "upstream_error"],
      ["fake", 503, 1, 0, "upstream_error"],
      ["fake-backup", 200, 0, 1, "ok"],
    ]);
    for (const a of attempts) {
      expect(a.parentSpanId).toBe(serve.spanId);
      expect(a.kind).toBe(CLIENT);
      expect(a.attributes["gen_ai.request.model"]).toBe("fake-chat");
    }
    expect(attempts.map((a) => a.status)).toEqual([2, 2, 0]);

    // gRPC metadata carried the trace: the control-plane authenticated the key, the ledger leased credit.
    // One lookup; two when a change event (the stack's seeding still arriving) overtook the first,
    // whose answer the key cache then asks again for (auth/key-cache.ts).
    const auths = spans.filter((s) => s.name === "gateway.control.v1.ControlService/AuthenticateKey" && s.service === "control-plane");
    expect(auths.length).toBeGreaterThanOrEqual(1);
    expect(auths.length).toBeLessThanOrEqual(2);
    for (const auth of auths) {
      expect(auth.kind).toBe(SERVER);
      const authClient = spans.find((s) => s.spanId === auth.parentSpanId)!;
      expect(authClient).toMatchObject({ service: "data-plane", kind: CLIENT, parentSpanId: one(spans, "gateway.authenticate").spanId });
    }
    const lease = one(spans, "gateway.ledger.v1.LedgerService/AcquireLease", "ledger");
    expect(spans.find((s) => s.spanId === lease.parentSpanId)).toMatchObject({ service: "data-plane", kind: CLIENT });

    // The usage event carried the publish span's traceparent: the ledger's apply of it is in the
    // request's trace, and the batch it was applied in links to it.
    const publish = one(spans, "gateway.usage.publish", "data-plane");
    expect(publish.kind).toBe(PRODUCER);
    expect(publish.parentSpanId).toBe(one(spans, "gateway.answer").spanId);
    const applied = one(spans, "ledger.usage.apply", "ledger");
    expect(applied).toMatchObject({ parentSpanId: publish.spanId, kind: CONSUMER, attributes: { "gateway.request_id": requestId, "ledger.outcome": "applied" } });
    const batch = await eventually(() => receiver.spans.find((s) => s.name === "ledger.apply_usage" && s.spanId === applied.links[0]?.spanId), 15_000, "the batch span");
    expect(batch.traceId).not.toBe(traceId);
    expect(batch.links).toContainEqual({ traceId, spanId: publish.spanId });
  });

  it("a request without traceparent starts a trace of its own, found by its request id", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "untraced caller" }] }).withResponse();
    const requestId = response.headers.get("x-request-id")!;
    const root = await eventually(() => receiver.spans.find((s) => s.service === "data-plane" && s.kind === SERVER && s.attributes["gateway.request_id"] === requestId), 10_000, "the request's span");
    expect(root.parentSpanId).toBe("");
    expect(root.name).toBe("POST /v1/chat/completions");
    const applied = await eventually(() => receiver.spans.find((s) => s.name === "ledger.usage.apply" && s.attributes["gateway.request_id"] === requestId), 10_000, "the ledger's apply");
    expect(applied.traceId).toBe(root.traceId);
  });

  it("traces an MCP tool call: its request span in the caller's trace, and the ledger's apply of its record", async () => {
    await stack.admin.EnableMcpServers({ org: stack.demo.orgId, servers: ["demo-tools"] });
    const traceId = hex(16);
    const client = new Client({ name: "tracing-test", version: "1.0.0" });
    const transport = new StreamableHTTPClientTransport(new URL(stack.baseUrl().replace(/\/v1$/, "/mcp/demo-tools")), {
      requestInit: { headers: { authorization: `Bearer ${stack.demo.secret}`, traceparent: `00-${traceId}-${hex(8)}-01` } },
    });
    await client.connect(transport);
    const called = await eventually(
      async () => ((await client.listTools()).tools.some((t) => t.name === "echo") ? client.callTool({ name: "echo", arguments: { text: "traced" } }) : undefined),
      15_000,
      "the demo tools enabled",
    );
    const requestId = (called._meta as Record<string, string>)["gateway/request_id"]!;
    await client.close();
    const root = await eventually(() => inTrace(traceId).find((s) => s.kind === SERVER && s.attributes["gateway.request_id"] === requestId), 10_000, "the tool call's span");
    expect(root).toMatchObject({ service: "data-plane", name: expect.stringMatching(/^POST \/mcp/) });
    // The call's stages, as a model request's: admission (pin, rate limit, guardrails, hold), the upstream call, the record and answer.
    for (const name of ["gateway.admission", "gateway.serve", "gateway.answer"]) {
      const span = await eventually(() => inTrace(traceId).find((s) => s.name === name), 10_000, name);
      expect(span.parentSpanId).toBe(root.spanId);
    }
    // Admission's own stages, named as a model route's: the plan (the tool and its price) and the key's rate limits.
    const admission = inTrace(traceId).find((s) => s.name === "gateway.admission")!;
    for (const name of ["gateway.plan", "gateway.rate_limit"]) {
      expect(inTrace(traceId).find((s) => s.name === name)?.parentSpanId, name).toBe(admission.spanId);
    }
    // The record's publish, in the answer stage: durable before the answer was released.
    const answer = inTrace(traceId).find((s) => s.name === "gateway.answer")!;
    expect(inTrace(traceId).find((s) => s.name === "gateway.usage.publish")?.parentSpanId).toBe(answer.spanId);
    const applied = await eventually(() => inTrace(traceId).find((s) => s.name === "ledger.usage.apply" && s.attributes["gateway.request_id"] === requestId), 10_000, "the ledger's apply");
    expect(applied.service).toBe("ledger");
  });

  it("a caller that did not sample its trace gets none recorded", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const unsampled = hex(16);
    await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "not sampled" }] }, { headers: { traceparent: `00-${unsampled}-${hex(8)}-00` } });
    // A sampled request made after it: once its spans (the ledger's apply included) are in, the
    // unsampled one's would be too.
    const sampled = hex(16);
    await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "sampled" }] }, { headers: { traceparent: `00-${sampled}-${hex(8)}-01` } });
    await eventually(() => (inTrace(sampled).some((s) => s.name === "ledger.usage.apply") ? true : undefined), 10_000, "the sampled request's spans");
    expect(inTrace(unsampled)).toEqual([]);
  });
});
