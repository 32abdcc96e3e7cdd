import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, post } from "../support/orgs.ts";
import type { AnyBody } from "../support/api.ts";

/**
 * `x-gateway-dry-run: true` runs admission (auth, visibility, scopes, rate limits, context, input
 * guardrails, the credit check) and answers the hold the request would take, or the 4xx it would
 * get, without holding credit or calling a provider.
 */
let stack: Stack;
const DRY = { "x-gateway-dry-run": "true" };

beforeAll(async () => {
  stack = await startStack("dry_run");
});
afterAll(async () => {
  await stack?.stop();
});

async function balance(secret: string): Promise<number> {
  const r = await fetch(`${stack.baseUrl()}/credits`, { headers: { authorization: `Bearer ${secret}` } });
  return ((await r.json()) as AnyBody).balance_minor as number;
}

describe("dry runs", () => {
  it("answer the hold a chat request would take, with its lines and deployments, and spend nothing", async () => {
    const org = await createOrg(stack, { balanceMinor: 100_000, models: ["gw-chat-mini"] });
    const body = JSON.stringify({ model: "gw-chat-mini", max_tokens: 200, messages: [{ role: "user", content: "how much would this cost?" }] });
    const calls = stack.fake.requests.length;
    const r = await eventually(
      async () => {
        const x = await post(stack.baseUrl(), org.secret, "/chat/completions", body, DRY);
        return x.status === 200 ? x : undefined;
      },
      5_000,
      "gw-chat-mini visible to the new org",
    );
    // gw-chat-mini: a prompt token at most 150,000 minor per million (input; cached 75,000), one per
    // byte of the largest request sent (the backup deployment's: its upstream model's name is the
    // longest); an output token 600,000 per million.
    const bytes = Buffer.byteLength(JSON.stringify({ ...JSON.parse(body), model: "fake-chat-backup" }));
    expect(bytes).toBeGreaterThan(Buffer.byteLength(body));
    expect(r.body).toEqual({
      object: "estimate",
      model: "gw-chat-mini",
      route: "chat",
      max_cost_minor: Math.ceil((bytes * 150_000 + 200 * 600_000) / 1_000_000),
      // Not streamed: held whole.
      hold_minor: Math.ceil((bytes * 150_000 + 200 * 600_000) / 1_000_000),
      admitted: true,
      lines: [
        { item: "input_tokens", quantity: bytes, unit_price_minor: 150_000, per: "1M tokens", cost_minor: Math.ceil((bytes * 150_000) / 1_000_000) },
        { item: "output_tokens", quantity: 200, unit_price_minor: 600_000, per: "1M tokens", cost_minor: 120 },
      ],
      deployments: [
        { provider: "fake", upstream_model: "fake-chat" },
        { provider: "fake-backup", upstream_model: "fake-chat-backup" },
      ],
    });
    expect(stack.fake.requests.length).toBe(calls);
    // Nothing was held or billed: the whole balance is still there, and a real request can spend it.
    expect(await balance(org.secret)).toBe(100_000);
    const real = await post(stack.baseUrl(), org.secret, "/chat/completions", body);
    expect(real.status).toBe(200);
    expect(stack.fake.requests.length).toBe(calls + 1);
  });

  it("answer the estimate and whether the real request would be admitted now (its 402 as the refusal), and exactly the other 4xx it would get: visibility, the output limit", async () => {
    const poor = await createOrg(stack, { models: ["gw-chat-mini"] });
    const body = JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] });
    const dry = await post(stack.baseUrl(), poor.secret, "/chat/completions", body, DRY);
    const real = await post(stack.baseUrl(), poor.secret, "/chat/completions", body);
    expect(real.status).toBe(402);
    expect(dry.status).toBe(200);
    expect(dry.body).toMatchObject({ object: "estimate", admitted: false, refusal: { code: real.body.error.code, message: real.body.error.message } });
    expect(dry.body.max_cost_minor).toBeGreaterThan(0);

    const unseen = JSON.stringify({ model: "gw-claude", messages: [{ role: "user", content: "hi" }] });
    const dryUnseen = await post(stack.baseUrl(), poor.secret, "/chat/completions", unseen, DRY);
    const realUnseen = await post(stack.baseUrl(), poor.secret, "/chat/completions", unseen);
    expect(dryUnseen.status).toBe(realUnseen.status);
    expect(dryUnseen.body.error.code).toBe(realUnseen.body.error.code);

    // An organization with strict output limits: the dry run's 400 is the real one.
    const strict = await createOrg(stack, { balanceMinor: 1_000_000, models: ["gw-chat-mini"] });
    await stack.admin.SetOrgOutputLimit({ org: strict.orgId, output_limit: "strict" });
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: strict.secret, maxRetries: 0 });
    const err = await eventually(
      async () => {
        const e = await client.chat.completions.create({ model: "gw-chat-mini", max_tokens: 100_000, messages: [{ role: "user", content: "hi" }] }, { headers: DRY }).catch((x: unknown) => x);
        return e instanceof OpenAI.BadRequestError ? e : undefined;
      },
      10_000,
      "the strict policy applied",
    );
    expect(err.param).toBe("max_tokens");
  });

  it("count against the key's rate limit like a request", async () => {
    const org = await createOrg(stack, { balanceMinor: 100_000, models: ["gw-chat-mini"], rpm: 2 });
    const body = JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] });
    const first = await eventually(
      async () => {
        const x = await post(stack.baseUrl(), org.secret, "/chat/completions", body, DRY);
        return x.status === 200 ? x : undefined;
      },
      5_000,
      "gw-chat-mini visible",
    );
    expect(first.headers.get("x-ratelimit-remaining-requests")).toBe("1");
    expect((await post(stack.baseUrl(), org.secret, "/chat/completions", body, DRY)).status).toBe(200);
    const third = await post(stack.baseUrl(), org.secret, "/chat/completions", body, DRY);
    expect(third.status).toBe(429);
  });

  it("price images by unit, and refuse a header that is neither true nor false", async () => {
    const r = await post(stack.baseUrl(), stack.demo.secret, "/images/generations", JSON.stringify({ model: "gw-image", prompt: "a lighthouse", n: 2, quality: "hd" }), DRY);
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ object: "estimate", route: "images", max_cost_minor: 160_000, lines: [{ item: "images", quantity: 1, cost_minor: 160_000 }] });

    const bad = await post(stack.baseUrl(), stack.demo.secret, "/chat/completions", JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "hi" }] }), {
      "x-gateway-dry-run": "maybe",
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatchObject({ code: "invalid_request", param: "x-gateway-dry-run" });
  });

  it("hold the earlier turns of a continued Responses conversation, not just the new input", async () => {
    const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const long = "a long first turn ".repeat(500);
    const first = await client.responses.create({ model: "gw-chat-mini", input: long, max_output_tokens: 50 });
    const next = JSON.stringify({ model: "gw-chat-mini", input: "and then?", previous_response_id: first.id, max_output_tokens: 50 });
    const r = await post(stack.baseUrl(), stack.demo.secret, "/responses", next, DRY);
    expect(r.status).toBe(200);
    const input = (r.body.lines as Array<{ item: string; quantity: number }>).find((l) => l.item === "input_tokens")!;
    // The new body is ~100 bytes; the stored turns (the long input and the echoed answer) are held too.
    expect(input.quantity).toBeGreaterThan(Buffer.byteLength(next) + Buffer.byteLength(long));
  });
});
