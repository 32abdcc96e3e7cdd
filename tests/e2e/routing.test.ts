import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { chatBody, post } from "../support/orgs.ts";
import type { UsageBody } from "../support/api.ts";

let stack: Stack;
let client: OpenAI;
beforeAll(async () => {
  // A client that leaves is read on for half a second here (DATA_PLANE_CLIENT_GONE_DRAIN_MS; 2 s deployed).
  stack = await startStack("routing", { dataPlaneEnv: { DATA_PLANE_RETRY_BASE_MS: "20", DATA_PLANE_CLIENT_GONE_DRAIN_MS: "500" } });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

describe("retries and timeouts", () => {
  it("retries the same provider on a retryable failure and reports the retry count", async () => {
    const { data, response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "again [[fake:flaky=retry-1:2]]" }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe("Echo: again");
    expect(response.headers.get("x-gateway-provider")).toBe("fake");
    expect(response.headers.get("x-gateway-retry-count")).toBe("2");
    expect(response.headers.get("x-gateway-attempted-fallbacks")).toBeNull();
  });

  it("honours the provider's Retry-After before retrying", async () => {
    const started = Date.now();
    const { response } = await client.chat.completions
      .create({ model: "gw-chat-mini", messages: [{ role: "user", content: "slow down [[fake:flaky=retry-2:1,status=429,retry_after=1]]" }] })
      .withResponse();
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(response.headers.get("x-gateway-retry-count")).toBe("1");
  });

  it("does not retry a provider's 4xx: the caller gets it", async () => {
    const r = await post(stack.baseUrl(), stack.demo.secret, "/chat/completions", chatBody("bad [[fake:status=400]]"));
    expect(r.status).toBe(400);
    expect(r.body.error.code).toBe("invalid_request");
    const attempts = stack.fake.requests.filter((q) => JSON.stringify(q.body).includes("bad [[fake:status=400]]"));
    expect(attempts).toHaveLength(1);
  });

  it("x-gateway-timeout-ms bounds each attempt; an invalid value falls back to the default", async () => {
    // The provider would answer after 3 s; the attempt gives up after ~1 s. The provider received the
    // request and may still be generating (and billing) it: no retry and no fallback start, which
    // would each cost a whole answer more than the hold covers (it was six attempts).
    const sentBefore = stack.fake.requests.filter((q) => JSON.stringify(q.body).includes("wait-once")).length;
    const timedOut = await post(stack.baseUrl(), stack.demo.secret, "/chat/completions", chatBody("wait-once [[fake:delay=3000]]", { model: "gw-chat-large" }), { "x-gateway-timeout-ms": "1000" });
    expect(timedOut.status).toBe(504);
    expect(timedOut.body.error.code).toBe("upstream_timeout");
    expect(timedOut.headers.get("x-gateway-retry-count")).toBe("0");
    expect(timedOut.headers.get("x-gateway-attempted-fallbacks")).toBeNull();
    expect(stack.fake.requests.filter((q) => JSON.stringify(q.body).includes("wait-once")).length - sentBefore).toBe(1);
    // Nor to a model's backup deployment: 1 attempt in all, not 3 on each of fake and fake-backup.
    const viaMini = await post(stack.baseUrl(), stack.demo.secret, "/chat/completions", chatBody("wait-mini [[fake:delay=1500]]"), { "x-gateway-timeout-ms": "1000" });
    expect(viaMini.status).toBe(504);
    expect(stack.fake.requests.filter((q) => JSON.stringify(q.body).includes("wait-mini"))).toHaveLength(1);
    const fine = await post(stack.baseUrl(), stack.demo.secret, "/chat/completions", chatBody("wait [[fake:delay=1200]]", { model: "gw-chat-large" }), { "x-gateway-timeout-ms": "soon" });
    expect(fine.status).toBe(200);
  });

  it("clamps x-gateway-timeout-ms to the server's maximum", async () => {
    const dp = await stack.addDataPlane({ DATA_PLANE_UPSTREAM_TIMEOUT_MAX_MS: "1000", DATA_PLANE_UPSTREAM_RETRIES: "0" });
    const r = await post(`${dp.url}/v1`, stack.demo.secret, "/chat/completions", chatBody("wait [[fake:delay=1500]]", { model: "gw-chat-large" }), { "x-gateway-timeout-ms": "600000" });
    expect(r.status).toBe(504);
  });
});

describe("fallbacks", () => {
  it("a malformed provider answer falls back; a cooled-down deployment is skipped", async () => {
    await stack.applyCatalog({
      models: [
        {
          id: "gw-broken-first",
          routes: ["chat"],
          context_window: 8000,
          max_output_tokens: 100,
          input_price_minor_per_mtok: 1,
          output_price_minor_per_mtok: 1,
          deployments: [
            { provider: "fake", upstream_model: "fake-chat+malformed", priority: 0 },
            { provider: "fake-backup", upstream_model: "fake-chat", priority: 1 },
          ],
        },
      ],
    });
    await stack.admin.EnableModels({ org: stack.demo.orgId, models: ["gw-broken-first"] });
    const call = () => post(stack.baseUrl(), stack.demo.secret, "/chat/completions", chatBody("hello", { model: "gw-broken-first" }));
    // The catalog change reaching the replica: waited for, not retried a fixed number of times.
    const r = await eventually(
      async () => {
        const x = await call();
        return x.status === 200 ? x : undefined;
      },
      10_000,
      "the catalog change reaching the replica",
    );
    expect(r.headers.get("x-gateway-provider")).toBe("fake-backup");
    expect(r.headers.get("x-gateway-attempted-fallbacks")).toBe("fake");
    // Three attempts per request on the broken deployment: after two requests its breaker is open.
    await call();
    const before = stack.fake.requests.filter((q) => (q.body as { model?: string })?.model === "fake-chat+malformed").length;
    const skipped = await call();
    const after = stack.fake.requests.filter((q) => (q.body as { model?: string })?.model === "fake-chat+malformed").length;
    expect(skipped.status).toBe(200);
    expect(after).toBe(before);
    expect(skipped.headers.get("x-gateway-attempted-fallbacks")).toBeNull();
  });
});

describe("streams that do not end well", () => {
  it("a stream without usage is billed from counted tokens, never at zero", async () => {
    const r = await fetch(`${stack.baseUrl()}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.demo.secret}`, "content-type": "application/json" },
      body: chatBody("count these delivered words [[fake:nousage]]", { stream: true }),
    });
    const text = await r.text();
    expect(text).toContain("[DONE]");
    const u = (await (await fetch(`${stack.baseUrl()}/usage/${r.headers.get("x-gateway-trace-id")}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } })).json()) as UsageBody;
    expect(u.usage.estimated).toBe(true);
    expect(u.usage.output_tokens).toBeGreaterThan(0);
    expect(u.cost_credits_minor).toBeGreaterThan(0);
  });

  it("a client that disconnects mid-stream: read on for the drain window, then the upstream is cancelled and billed what was read", async () => {
    const controller = new AbortController();
    const r = await fetch(`${stack.baseUrl()}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.demo.secret}`, "content-type": "application/json" },
      body: chatBody(`${"word ".repeat(200)}[[fake:chunk_delay=50]]`, { stream: true }),
      signal: controller.signal,
    });
    const id = r.headers.get("x-gateway-trace-id")!;
    const reader = r.body!.getReader();
    await reader.read();
    await reader.read();
    controller.abort();
    const u = await eventually(
      async () => {
        const x = await fetch(`${stack.baseUrl()}/usage/${id}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
        return x.status === 200 ? ((await x.json()) as UsageBody) : undefined;
      },
      10_000,
      "the abandoned stream's record",
    );
    // 201 words at 50 ms take 10 s: the 0.5 s drain window ends first.
    expect(u.usage).toMatchObject({ estimated: true, basis: "estimated" });
    expect(u.usage.output_tokens).toBeGreaterThan(0);
    // What was read in the window (about 10 words at 50 ms), far fewer than the 201 words of the full answer.
    expect(u.usage.output_tokens).toBeLessThan(100);
  });
});
