import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";
import type { AnyBody, UsageBody } from "../support/api.ts";

// Every price distinct, so a token billed at the wrong price shows (minor units per million tokens).
const PRICES = {
  input_price_minor_per_mtok: 1_000_000,
  cached_input_price_minor_per_mtok: 250_000,
  cache_write_price_minor_per_mtok: 1_250_000,
  output_price_minor_per_mtok: 4_000_000,
  reasoning_price_minor_per_mtok: 8_000_000,
};

let stack: Stack;
let client: OpenAI;

async function get(path: string): Promise<{ status: number; body: AnyBody }> {
  const r = await fetch(`${stack.baseUrl()}${path}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
  return { status: r.status, body: await r.json() };
}

/** What the gateway must bill for OpenAI counts: cached and reasoning tokens are parts of the totals. */
function expected(u: { prompt_tokens: number; completion_tokens: number; cached: number; reasoning: number }) {
  const items = [
    { item: "input_tokens", quantity: u.prompt_tokens - u.cached, unit_price_minor: PRICES.input_price_minor_per_mtok, per: "1M tokens" },
    { item: "cached_input_tokens", quantity: u.cached, unit_price_minor: PRICES.cached_input_price_minor_per_mtok, per: "1M tokens" },
    { item: "output_tokens", quantity: u.completion_tokens - u.reasoning, unit_price_minor: PRICES.output_price_minor_per_mtok, per: "1M tokens" },
    { item: "reasoning_tokens", quantity: u.reasoning, unit_price_minor: PRICES.reasoning_price_minor_per_mtok, per: "1M tokens" },
  ];
  return { items, cost: Math.ceil(items.reduce((s, i) => s + i.quantity * i.unit_price_minor, 0) / 1_000_000) };
}

beforeAll(async () => {
  stack = await startStack("cache-reasoning");
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
  await stack.applyCatalog({
    models: [{ id: "gw-reasoner", routes: ["chat"], context_window: 128_000, max_output_tokens: 4_096, ...PRICES, deployments: [{ provider: "fake", upstream_model: "fake-reasoner", priority: 0 }] }],
  });
  await stack.admin.EnableModels({ org: stack.demo.orgId, models: ["gw-reasoner"] });
  const warm = await eventually(() => client.chat.completions.create({ model: "gw-reasoner", messages: [{ role: "user", content: "warm up" }] }).withResponse(), 15_000, "gw-reasoner visible");
  // Settled before the first test reads the balance.
  expect((await get(`/usage/${warm.response.headers.get("x-gateway-trace-id")}`)).status).toBe(200);
});
afterAll(async () => {
  await stack?.stop();
});

describe("prompt-cache reads and reasoning tokens, billed at their own prices", () => {
  it("a chat completion: balance change, cost and line items match the provider's cached and reasoning counts exactly", async () => {
    const before = (await get("/credits")).body;
    const { data, response } = await client.chat.completions
      .create({ model: "gw-reasoner", messages: [{ role: "user", content: "[[fake:cached=5,reasoning=40]] think hard about these seven words" }] })
      .withResponse();
    const u = data.usage!;
    // The provider's own counts reach the client unchanged.
    expect(u.prompt_tokens_details?.cached_tokens).toBe(5);
    expect(u.completion_tokens_details?.reasoning_tokens).toBe(40);
    // Priced from what the provider itself reported (its answer), not from the gateway's usage.
    const p = providerUsage(stack.fake, "think hard about these seven words");
    const want = expected({ prompt_tokens: p.input, completion_tokens: p.output, cached: 5, reasoning: 40 });

    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)).body as UsageBody;
    expect(record.usage).toMatchObject({ input_tokens: u.prompt_tokens, output_tokens: u.completion_tokens, cached_input_tokens: 5, cache_creation_input_tokens: 0, reasoning_tokens: 40 });
    expect(record.line_items).toEqual(want.items);
    expect(record.cost_credits_minor).toBe(want.cost);
    // Not what input and output prices alone would have charged.
    expect(want.cost).not.toBe(Math.ceil((u.prompt_tokens * PRICES.input_price_minor_per_mtok + u.completion_tokens * PRICES.output_price_minor_per_mtok) / 1_000_000));

    const after = (await get("/credits")).body;
    expect(before.balance_minor - after.balance_minor).toBe(want.cost);
    expect(after.spent_minor - before.spent_minor).toBe(want.cost);
  });

  it("a stream: the counts of the final usage chunk are billed the same way", async () => {
    const before = (await get("/credits")).body;
    const { data: stream, response } = await client.chat.completions
      .create({ model: "gw-reasoner", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "[[fake:cached=3,reasoning=17]] stream a short answer" }] })
      .withResponse();
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const chunk of stream) if (chunk.usage) usage = chunk.usage;
    expect(usage?.prompt_tokens_details?.cached_tokens).toBe(3);
    expect(usage?.completion_tokens_details?.reasoning_tokens).toBe(17);
    const p = providerUsage(stack.fake, "stream a short answer");
    const want = expected({ prompt_tokens: p.input, completion_tokens: p.output, cached: 3, reasoning: 17 });

    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)).body as UsageBody;
    expect(record.usage).toMatchObject({ cached_input_tokens: 3, reasoning_tokens: 17 });
    expect(record.line_items).toEqual(want.items);
    expect(record.cost_credits_minor).toBe(want.cost);
    const after = (await get("/credits")).body;
    expect(before.balance_minor - after.balance_minor).toBe(want.cost);
  });

  it("a request without cached or reasoning tokens lists input and output only, at their prices", async () => {
    const { response } = await client.chat.completions.create({ model: "gw-reasoner", messages: [{ role: "user", content: "plain question" }] }).withResponse();
    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)).body as UsageBody;
    const p = providerUsage(stack.fake, "plain question");
    expect(record.line_items).toEqual([
      { item: "input_tokens", quantity: p.input, unit_price_minor: PRICES.input_price_minor_per_mtok, per: "1M tokens" },
      { item: "output_tokens", quantity: p.output, unit_price_minor: PRICES.output_price_minor_per_mtok, per: "1M tokens" },
    ]);
  });
});

describe("the hold at the dearest price of each token kind", () => {
  it("holds prompt bytes at the cache-write price and the completion limit at the reasoning price: one minor unit less is a 402, and what the provider charges fits", async () => {
    const body = JSON.stringify({ model: "gw-reasoner", max_completion_tokens: 100, messages: [{ role: "user", content: "[[fake:reasoning=100]] reason as long as you may" }] });
    // The request sent upstream (its model's name rewritten) is the larger: the hold covers what is sent.
    const bytes = Math.max(Buffer.byteLength(body), Buffer.byteLength(JSON.stringify({ ...JSON.parse(body), model: "fake-reasoner" })));
    // One token per sent byte at max(input, cached, cache write); 100 completion tokens at max(output, reasoning).
    const hold = Math.ceil((bytes * PRICES.cache_write_price_minor_per_mtok + 100 * PRICES.reasoning_price_minor_per_mtok) / 1_000_000);
    // At the input and output prices alone the hold would be smaller: this balance would have been enough.
    expect(Math.ceil((bytes * PRICES.input_price_minor_per_mtok + 100 * PRICES.output_price_minor_per_mtok) / 1_000_000)).toBeLessThan(hold - 1);
    const o = await createOrg(stack, { balanceMinor: hold - 1, models: ["gw-reasoner"] });
    const send = () => fetch(`${stack.baseUrl()}/chat/completions`, { method: "POST", headers: { authorization: `Bearer ${o.secret}`, "content-type": "application/json" }, body });
    const refused = await eventually(
      async () => {
        const r = await send();
        return r.status === 404 ? undefined : r;
      },
      5_000,
      "gw-reasoner visible to the new org",
    );
    expect(refused.status).toBe(402);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("insufficient_credits");

    await stack.ledgerClient.TopUp({ org_id: o.orgId, amount_minor: 1, idempotency_key: `one-more-${o.orgId}` });
    const r = await send();
    expect(r.status).toBe(200);
    const answer = (await r.json()) as OpenAI.ChatCompletion;
    expect(answer.usage!.completion_tokens_details?.reasoning_tokens).toBe(100);
    const record = (await get2(o.secret, `/usage/${r.headers.get("x-gateway-trace-id")}`)) as UsageBody;
    expect(record.cost_credits_minor).toBeLessThanOrEqual(hold);
    const credits = await stack.ledgerClient.GetCredits({ org_id: o.orgId });
    expect(credits.balance_minor).toBe(hold - record.cost_credits_minor);
    expect(credits.balance_minor).toBeGreaterThanOrEqual(0);
  });
});

async function get2(secret: string, path: string): Promise<AnyBody> {
  const r = await fetch(`${stack.baseUrl()}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  return r.json();
}
