import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeUpstream, type FakeUpstream } from "@gateway/fake-upstream";
import { FAKE_UPSTREAM_API_KEY } from "../../scripts/lib/demo-catalog.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { chatBody, post } from "../support/orgs.ts";

let stack: Stack;
/** A provider of its own, so its connections are counted apart from every other provider's. */
let narrow: FakeUpstream;
let client: OpenAI;

const model = (id: string, deployments: { provider: string; upstream_model: string; priority: number }[]) => ({
  id,
  routes: ["chat"],
  context_window: 128_000,
  max_output_tokens: 1_000,
  input_price_minor_per_mtok: 150_000,
  output_price_minor_per_mtok: 600_000,
  deployments,
});

beforeAll(async () => {
  // No retry of the same deployment: a queued attempt that times out goes straight to the fallback.
  stack = await startStack("upstream-connections", { dataPlaneEnv: { DATA_PLANE_UPSTREAM_RETRIES: "0" } });
  narrow = await startFakeUpstream({ apiKey: FAKE_UPSTREAM_API_KEY });
  await stack.applyCatalog({
    providers: [{ code: "narrow", kind: "openai-compatible", base_url: `${narrow.url}/v1`, credential_ref: "FAKE_UPSTREAM_API_KEY", max_connections: 2 }],
    models: [
      model("gw-narrow", [{ provider: "narrow", upstream_model: "fake-chat", priority: 0 }]),
      model("gw-narrow-then-fake", [
        { provider: "narrow", upstream_model: "fake-chat", priority: 0 },
        { provider: "fake", upstream_model: "fake-chat", priority: 1 },
      ]),
    ],
  });
  await stack.admin.EnableModels({ org: stack.demo.orgId, models: ["gw-narrow", "gw-narrow-then-fake"] });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
  await narrow?.close();
});

/** A stream of `words` words, one every 100 ms: it holds its upstream connection while it runs. */
async function slowStream(tag: string, words: number): Promise<string> {
  const stream = await client.chat.completions.create({ model: "gw-narrow", stream: true, messages: [{ role: "user", content: `${tag} [[fake:words=${words},chunk_delay=100]]` }] });
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
  return text;
}

const sentUpstream = (marker: string) => narrow.requests.filter((r) => JSON.stringify(r.body).includes(marker)).length;

describe("a provider's connection limit from the catalog", () => {
  it("opens at most max_connections to the provider; the other streams wait their turn and all complete", async () => {
    const texts = await Promise.all(Array.from({ length: 5 }, (_, i) => slowStream(`limit-${i}`, 8)));
    for (const t of texts) expect(t.split(/\s+/).filter(Boolean)).toHaveLength(8);
    expect(narrow.connections.peak).toBe(2);
    const metrics = await (await fetch(`${stack.dataPlanes[0]!.url}/metrics`)).text();
    const count = /gateway_upstream_connection_wait_seconds_count\{[^}]*provider="narrow"[^}]*\} (\d+)/.exec(metrics);
    expect(Number(count?.[1])).toBeGreaterThanOrEqual(5);
  });

  it("a request still waiting for a connection when its timeout runs out falls back, or fails with upstream_timeout, and is never sent", async () => {
    // Two long streams hold both connections.
    const holders = [slowStream("holder-a", 60), slowStream("holder-b", 60)];
    for (let i = 0; i < 250 && sentUpstream("holder-") < 2; i++) await new Promise((r) => setTimeout(r, 20));
    expect(sentUpstream("holder-")).toBe(2);

    const fellBack = await post(stack.baseUrl(), stack.demo.secret, "/chat/completions", chatBody("queued-fallback", { model: "gw-narrow-then-fake" }), { "x-gateway-timeout-ms": "1000" });
    expect(fellBack.status).toBe(200);
    expect(fellBack.headers.get("x-gateway-provider")).toBe("fake");
    expect(fellBack.headers.get("x-gateway-attempted-fallbacks")).toBe("narrow");

    const timedOut = await post(stack.baseUrl(), stack.demo.secret, "/chat/completions", chatBody("queued-timeout", { model: "gw-narrow" }), { "x-gateway-timeout-ms": "1000" });
    expect(timedOut.status).toBe(504);
    expect(timedOut.body.error.code).toBe("upstream_timeout");

    // The long streams were not disturbed, and the expired requests never reached the provider.
    for (const t of await Promise.all(holders)) expect(t.split(/\s+/).filter(Boolean)).toHaveLength(60);
    expect(sentUpstream("queued-fallback")).toBe(0);
    expect(sentUpstream("queued-timeout")).toBe(0);
    expect(narrow.connections.peak).toBe(2);
  });
});
