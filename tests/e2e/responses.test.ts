import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import type { AnyBody } from "../support/api.ts";

/** The Responses API through the official openai SDK, for every chat model (translated to each provider's chat shape). */
const PRICE_IN = 150_000; // gw-chat-mini, minor units per million tokens
const PRICE_OUT = 600_000;
const cost = (u: { input_tokens: number; output_tokens: number }) => Math.ceil((u.input_tokens * PRICE_IN + u.output_tokens * PRICE_OUT) / 1_000_000);

let stack: Stack;
let org: TestOrg;
let client: OpenAI;

async function get(path: string, secret = org.secret): Promise<{ status: number; body: AnyBody }> {
  const r = await fetch(`${stack.baseUrl()}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  return { status: r.status, body: (await r.json()) as AnyBody };
}

beforeAll(async () => {
  stack = await startStack("responses");
  org = await createOrg(stack, { balanceMinor: 10_000_000, models: ["gw-chat-mini", "gw-claude"] });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

describe("the Responses API through the official openai SDK", () => {
  it("answers responses.create with output text and usage, and bills it once at the model's prices", async () => {
    const before = (await get("/credits")).body.balance_minor as number;
    const { data, response } = await client.responses.create({ model: "gw-chat-mini", instructions: "Be brief.", input: "Hello responses API" }).withResponse();
    expect(data.object).toBe("response");
    expect(data.id).toMatch(/^resp_/);
    expect(data.status).toBe("completed");
    expect(data.model).toBe("gw-chat-mini");
    expect(data.output_text).toBe("Echo: Hello responses API");
    expect(data.instructions).toBe("Be brief.");
    expect(data.usage!.input_tokens).toBeGreaterThan(0);
    expect(data.usage!.total_tokens).toBe(data.usage!.input_tokens + data.usage!.output_tokens);
    const requestId = response.headers.get("x-request-id")!;
    const usage = await get(`/usage/${requestId}`);
    expect(usage.status).toBe(200);
    expect(usage.body).toMatchObject({ model: "gw-chat-mini", usage: { input_tokens: data.usage!.input_tokens, output_tokens: data.usage!.output_tokens } });
    expect(usage.body.cost_credits_minor).toBe(cost(data.usage!));
    expect((await get("/credits")).body.balance_minor).toBe(before - cost(data.usage!));
  });

  it("streams the event sequence the SDK consumes, ending with the whole response and its usage", async () => {
    const stream = client.responses.stream({ model: "gw-chat-mini", input: [{ role: "user", content: [{ type: "input_text", text: "stream these words please" }] }] });
    const types: string[] = [];
    let deltas = "";
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === "response.output_text.delta") deltas += ev.delta;
    }
    const final = await stream.finalResponse();
    expect(types[0]).toBe("response.created");
    expect(types).toContain("response.output_item.added");
    expect(types).toContain("response.output_text.done");
    expect(types.at(-1)).toBe("response.completed");
    expect(deltas).toBe("Echo: stream these words please");
    expect(final.output_text).toBe(deltas);
    expect(final.status).toBe("completed");
    expect(final.usage!.output_tokens).toBeGreaterThan(0);
  });

  it("round-trips a function tool: a function_call item, then its output answered", async () => {
    const tools = [{ type: "function" as const, name: "lookup", description: "Looks a word up", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, strict: false }];
    const first = await client.responses.create({ model: "gw-chat-mini", input: "find gateways", tools });
    const call = first.output.find((o) => o.type === "function_call");
    expect(call).toMatchObject({ type: "function_call", name: "lookup", status: "completed" });
    if (call?.type !== "function_call") throw new Error("no function call");
    expect(JSON.parse(call.arguments)).toEqual({ text: "find gateways" });
    const second = await client.responses.create({
      model: "gw-chat-mini",
      tools,
      input: [
        { role: "user", content: "find gateways" },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "three gateways found" },
      ],
    });
    expect(second.output_text).toBe("Tool said: three gateways found");
  });

  it("serves an Anthropic model through the same API", async () => {
    const r = await client.responses.create({ model: "gw-claude", input: "Hello claude via responses", max_output_tokens: 50 });
    expect(r.status).toBe("completed");
    expect(r.output_text).toContain("Hello claude via responses");
  });

  it("refuses what it cannot honour with a precise 400 or 404, never a 500", async () => {
    await expect(client.responses.create({ model: "gw-chat-mini", input: "x", previous_response_id: "resp_abc" })).rejects.toMatchObject({
      status: 400,
      error: { param: "previous_response_id" },
    });
    await expect(client.responses.create({ model: "gw-chat-mini", input: [{ type: "web_search_call" } as never] })).rejects.toMatchObject({ status: 400 });
    await expect(client.responses.create({ model: "gw-chat-mini", input: "x", tools: [{ type: "web_search_preview" }] })).rejects.toMatchObject({ status: 400, error: { param: "tools[0]" } });
    await expect(client.responses.retrieve("resp_unknown")).rejects.toMatchObject({ status: 404 });
    await expect(client.responses.create({ model: "gw-nope", input: "x" })).rejects.toMatchObject({ status: 404 });
  });

  it("is a route a key can be scoped to", async () => {
    const chatOnly = await createOrg(stack, { balanceMinor: 100_000, keyRoutes: ["chat"] });
    const scoped = new OpenAI({ baseURL: stack.baseUrl(), apiKey: chatOnly.secret, maxRetries: 0 });
    await expect(scoped.responses.create({ model: "gw-chat-mini", input: "x" })).rejects.toMatchObject({ status: 403, error: { code: "route_not_allowed" } });
    const responsesOnly = await createOrg(stack, { balanceMinor: 100_000, keyRoutes: ["responses"] });
    const ok = await new OpenAI({ baseURL: stack.baseUrl(), apiKey: responsesOnly.secret, maxRetries: 0 }).responses.create({ model: "gw-chat-mini", input: "scoped" });
    expect(ok.output_text).toBe("Echo: scoped");
  });
});
