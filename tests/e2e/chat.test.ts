import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";
import type { AnyBody, ErrorBody, TrialPolicyBody } from "../support/api.ts";

const PRICE_IN = 150_000; // gw-chat-mini, minor units per million input tokens
const PRICE_OUT = 600_000;
/** The catalog's prices times what the fake provider itself reported (not the gateway's usage). */
const expectedCost = (marker: string) => {
  const p = providerUsage(stack.fake, marker);
  return Math.ceil((p.input * PRICE_IN + p.output * PRICE_OUT) / 1_000_000);
};

interface UsageBody {
  object: string;
  request_id: string;
  model: string;
  usage: { input_tokens: number; output_tokens: number };
  cost_credits_minor: number;
  catalog_version: number | null;
}

let stack: Stack;
let client: OpenAI;

async function get(path: string, secret = stack.demo.secret, replica = 0): Promise<{ status: number; body: AnyBody; headers: Headers }> {
  const r = await fetch(`${stack.baseUrl(replica)}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  return { status: r.status, body: await r.json(), headers: r.headers };
}

beforeAll(async () => {
  stack = await startStack("chat");
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

describe("chat completions through the official openai SDK", () => {
  it("lists exactly the models the key may use", async () => {
    const ids: string[] = [];
    for await (const m of client.models.list()) {
      expect(m.object).toBe("model");
      expect(m.owned_by).toBe("gateway");
      if (m.id === "gw-gpt") expect(m).toMatchObject({ context_window: 400_000, max_output_tokens: 128_000 });
      ids.push(m.id);
    }
    expect(ids.sort()).toEqual(["gw-chat-large", "gw-chat-mini", "gw-claude", "gw-embed-small", "gw-gemini", "gw-gpt", "gw-image", "gw-video", "gw-video-edit", "gw-video-i2v", "gw-video-ref"]);
  });

  it("completes, bills the exact cost, and the usage record and balance agree", async () => {
    const before = await get("/credits");
    const { data, response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "Hello there gateway" }] }).withResponse();
    expect(data.choices[0]!.message.content).toBe("Echo: Hello there gateway");
    expect(data.model).toBe("gw-chat-mini");
    const traceId = response.headers.get("x-gateway-trace-id")!;
    expect(traceId).toMatch(/^req_[0-9a-f]{28}$/);
    expect(response.headers.get("x-gateway-provider")).toBe("fake");
    expect(response.headers.get("x-gateway-upstream-model")).toBe("fake-chat");
    expect(response.headers.get("x-gateway-retry-count")).toBe("0");
    expect(response.headers.get("x-gateway-attempted-fallbacks")).toBeNull();

    // Read back right away: the lookup waits for the ledger instead of answering 404.
    const usage = await get(`/usage/${traceId}`);
    expect(usage.status).toBe(200);
    const u = usage.body as UsageBody;
    expect(u).toMatchObject({ object: "usage", request_id: traceId, model: "gw-chat-mini" });
    expect(u.usage).toMatchObject({ input_tokens: data.usage!.prompt_tokens, output_tokens: data.usage!.completion_tokens });
    expect(u.cost_credits_minor).toBe(expectedCost("Hello there gateway"));
    expect(u.cost_credits_minor).toBeGreaterThan(0);
    // Priced at the catalog version the replica served it from, which the record names.
    expect(u.catalog_version).toBe(stack.dataPlanes[0]!.ctx.catalog.current.version);
    expect(u.catalog_version).toBeGreaterThan(0);
    expect((u as unknown as { line_items: unknown[] }).line_items).toEqual([
      { item: "input_tokens", quantity: data.usage!.prompt_tokens, unit_price_minor: PRICE_IN, per: "1M tokens" },
      { item: "output_tokens", quantity: data.usage!.completion_tokens, unit_price_minor: PRICE_OUT, per: "1M tokens" },
    ]);

    const after = await get("/credits");
    expect(after.body.object).toBe("credits");
    expect(before.body.balance_minor - after.body.balance_minor).toBe(u.cost_credits_minor);
    expect(after.body.spent_minor - before.body.spent_minor).toBe(u.cost_credits_minor);
  });

  it("says where the time went: the provider, the durable usage event and the whole, in Server-Timing", async () => {
    const timing = (h: string | null) => Object.fromEntries((h ?? "").split(", ").map((m) => [m.split(";")[0], Number(m.split("dur=")[1])]));
    const sent = performance.now();
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "[[fake:delay=300]] take your time" }] }).withResponse();
    const roundTrip = performance.now() - sent;
    const t = timing(response.headers.get("server-timing"));
    expect(Object.keys(t)).toEqual(["upstream", "usage", "total"]);
    expect(t.upstream).toBeGreaterThanOrEqual(300);
    expect(t.usage).toBeGreaterThan(0);
    // The parts are inside the whole, and the whole inside what the client waited.
    expect(t.total).toBeGreaterThanOrEqual(t.upstream! + t.usage!);
    expect(t.total).toBeLessThanOrEqual(roundTrip);

    // A stream's headers go out with its first frame, before it is billed: no usage entry yet.
    const stream = await client.chat.completions.create({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "[[fake:delay=200]] stream it" }] }).withResponse();
    const s = timing(stream.response.headers.get("server-timing"));
    expect(Object.keys(s)).toEqual(["upstream", "total"]);
    expect(s.upstream).toBeGreaterThanOrEqual(200);
    for await (const _chunk of stream.data) {
      // read to the end: the stream is billed there
    }
  });

  it("sends the upstream model id and the provider credential, and passes unknown fields through", async () => {
    const { response } = await client.chat.completions
      .create({
        model: "gw-chat-mini",
        messages: [{ role: "user", content: "pass me through" }],
        temperature: 0.25,
        // @ts-expect-error a field the SDK does not know: the gateway forwards it, as the reference API would accept it
        vendor_option: { keep: true },
      })
      .withResponse();
    // Billed like any request (and settled before the next test reads the balance).
    expect((await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)).status).toBe(200);
    const seen = stack.fake.requests.filter((r) => r.path === "/v1/chat/completions").at(-1)!;
    expect(seen.body).toMatchObject({ model: "fake-chat", temperature: 0.25, vendor_option: { keep: true } });
    expect(seen.headers.authorization).toBe("Bearer fake-upstream-local-key");
    expect(JSON.stringify(seen.headers)).not.toContain(stack.demo.secret);
  });

  it("refuses a service_tier the provider would charge above the catalog's prices, before anything is sent", async () => {
    const sent = stack.fake.requests.length;
    await expect(client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "jump the queue" }], service_tier: "priority" })).rejects.toMatchObject({
      status: 400,
      error: { param: "service_tier", message: "'service_tier' is not supported: only 'auto', 'default' and 'flex' are accepted." },
    });
    expect(stack.fake.requests.length).toBe(sent);
    const flex = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "whenever" }], service_tier: "flex" }).withResponse();
    expect(flex.data.choices[0]!.message.content).toBe("Echo: whenever");
    expect((await get(`/usage/${flex.response.headers.get("x-gateway-trace-id")}`)).status).toBe(200);
  });

  it("streams, with usage when asked, and bills the stream", async () => {
    const before = await get("/credits");
    const { data: stream, response } = await client.chat.completions
      .create({
        model: "gw-chat-mini",
        messages: [{ role: "user", content: "stream these five words" }],
        stream: true,
        stream_options: { include_usage: true },
      })
      .withResponse();
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    let chunks = 0;
    for await (const chunk of stream) {
      chunks++;
      text += chunk.choices[0]?.delta?.content ?? "";
      if (chunk.usage) usage = chunk.usage;
    }
    expect(text).toBe("Echo: stream these five words");
    expect(chunks).toBeGreaterThan(3);
    expect(usage).toBeDefined();
    const traceId = response.headers.get("x-gateway-trace-id")!;
    const u = (await get(`/usage/${traceId}`)).body as UsageBody;
    expect(u.cost_credits_minor).toBe(expectedCost("stream these five words"));
    const after = await get("/credits");
    expect(before.body.balance_minor - after.body.balance_minor).toBe(u.cost_credits_minor);
  });

  it("keeps its own usage chunk from a client that did not ask for it, and still bills", async () => {
    const { data: stream, response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "no usage please" }], stream: true }).withResponse();
    let sawUsage = false;
    for await (const chunk of stream) if (chunk.usage) sawUsage = true;
    expect(sawUsage).toBe(false);
    const u = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)).body as UsageBody;
    expect(u.usage.output_tokens).toBe(4); // "Echo: no usage please"
    expect(u.cost_credits_minor).toBeGreaterThan(0);
  });

  it("falls back to the next deployment and says so in the headers", async () => {
    await stack.applyCatalog({
      models: [
        {
          id: "gw-flaky",
          routes: ["chat"],
          context_window: 8000,
          max_output_tokens: 1000,
          input_price_minor_per_mtok: 1_000_000,
          output_price_minor_per_mtok: 2_000_000,
          deployments: [
            { provider: "fake", upstream_model: "fake-chat+status=503", priority: 0 },
            { provider: "fake-backup", upstream_model: "fake-chat", priority: 1 },
          ],
        },
      ],
    });
    await stack.admin.EnableModels({ org: stack.demo.orgId, models: ["gw-flaky"] });
    const { data, response } = await eventually(
      () => client.chat.completions.create({ model: "gw-flaky", messages: [{ role: "user", content: "try again" }] }).withResponse(),
      5_000,
      "gw-flaky visible",
    );
    expect(data.choices[0]!.message.content).toBe("Echo: try again");
    expect(response.headers.get("x-gateway-provider")).toBe("fake-backup");
    expect(response.headers.get("x-gateway-attempted-fallbacks")).toBe("fake");
  });

  it("ends a stream cut mid-way with an explicit error event and bills what was delivered", async () => {
    const r = await fetch(`${stack.baseUrl()}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.demo.secret}`, "content-type": "application/json" },
      body: JSON.stringify({ model: "gw-chat-mini", stream: true, messages: [{ role: "user", content: "one two three four five six [[fake:cut=3]]" }] }),
    });
    expect(r.status).toBe(200);
    const text = await r.text();
    expect(text).toContain('"error"');
    expect(text).not.toContain("[DONE]");
    const u = (await get(`/usage/${r.headers.get("x-gateway-trace-id")}`)).body as UsageBody & { usage: { estimated: boolean } };
    expect(u.usage.estimated).toBe(true);
    expect(u.cost_credits_minor).toBeGreaterThan(0);
  });
});

describe("errors a caller sees", () => {
  it("401 for missing, malformed, unknown and revoked keys, with the error object", async () => {
    const missing = await fetch(`${stack.baseUrl()}/models`);
    expect(missing.status).toBe(401);
    expect(((await missing.json()) as ErrorBody).error.code).toBe("missing_api_key");

    const malformed = await get("/models", "not-a-gateway-key");
    expect(malformed.status).toBe(401);
    expect(malformed.body.error.code).toBe("invalid_api_key");

    const unknown = new OpenAI({ baseURL: stack.baseUrl(), apiKey: `sk-gateway-${"x".repeat(43)}`, maxRetries: 0 });
    const err = await unknown.models.list().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.AuthenticationError);
    expect((err as InstanceType<typeof OpenAI.AuthenticationError>).code).toBe("invalid_api_key");

    const created = await stack.admin.CreateKey({ org: stack.demo.orgId, routes: [], models: [], name: "to-revoke" });
    expect((await get("/models", created.secret)).status).toBe(200);
    await stack.admin.RevokeKey({ key_id: created.key!.id });
    // The revocation event evicts the cached key on the replica within about a second.
    const revoked = await eventually(
      async () => {
        const r = await get("/models", created.secret);
        return r.status === 401 ? r : undefined;
      },
      15_000,
      "revoked key refused",
    );
    expect(revoked.body.error.code).toBe("revoked_api_key");
  });

  it("another organization's usage id is a 404 like a missing one", async () => {
    const { response } = await client.chat.completions.create({ model: "gw-chat-mini", messages: [{ role: "user", content: "mine" }] }).withResponse();
    const traceId = response.headers.get("x-gateway-trace-id")!;
    const other = await stack.admin.CreateOrg({ name: "other-org" });
    const otherKey = await stack.admin.CreateKey({ org: other.id, routes: [], models: [], name: "" });
    const cross = await get(`/usage/${traceId}`, otherKey.secret);
    const missing = await get(`/usage/req_000000000000${"0".repeat(16)}`, otherKey.secret);
    expect(cross.status).toBe(404);
    expect(missing.status).toBe(404);
    expect(cross.body.error.code).toBe(missing.body.error.code);
    expect((await get(`/usage/${traceId}`)).status).toBe(200);
  });

  it("unknown model, malformed JSON and unknown paths get the error object, never HTML", async () => {
    const err = await client.chat.completions.create({ model: "nope", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.NotFoundError);
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).code).toBe("model_not_found");
    // The SDK's request id is ours, so a support ticket can quote it.
    expect((err as InstanceType<typeof OpenAI.NotFoundError>).requestID).toMatch(/^req_/);

    const bad = await fetch(`${stack.baseUrl()}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${stack.demo.secret}`, "content-type": "application/json" },
      body: '{"model": "gw-chat-mini", "messages": [',
    });
    expect(bad.status).toBe(400);
    expect(bad.headers.get("content-type")).toContain("application/json");
    const badBody = (await bad.json()) as ErrorBody;
    expect(badBody.error.code).toBe("invalid_json");
    expect(badBody.error.request_id).toBe(bad.headers.get("x-gateway-trace-id"));

    const nf = await fetch(`${stack.baseUrl()}/nothing/here`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
    expect(nf.status).toBe(404);
    expect(((await nf.json()) as ErrorBody).error.code).toBe("not_found");

    const wrongType = await client.chat.completions.create({ model: "gw-chat-mini", messages: "hi" as never }).catch((e: unknown) => e);
    expect(wrongType).toBeInstanceOf(OpenAI.BadRequestError);
    expect((wrongType as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages");
  });

  it("the trial policy is public and stable", async () => {
    const a = await fetch(`${stack.baseUrl()}/trial-policy`);
    expect(a.status).toBe(200);
    const p = (await a.json()) as TrialPolicyBody;
    expect(p).toMatchObject({ scope: "chat" });
    expect(p.policy_hash).toMatch(/^[0-9a-f]{64}$/);
    const b = (await (await fetch(`${stack.baseUrl()}/trial-policy`)).json()) as TrialPolicyBody;
    expect(b.policy_hash).toBe(p.policy_hash);
  });
});
