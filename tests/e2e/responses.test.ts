import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import type { AnyBody } from "../support/api.ts";
import { eventually } from "@gateway/testing";

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
    // Priced from what the provider (chat completions, the request translated) itself reported.
    const p = providerUsage(stack.fake, "Hello responses API");
    expect(usage.body.cost_credits_minor).toBe(cost({ input_tokens: p.input, output_tokens: p.output }));
    expect((await get("/credits")).body.balance_minor).toBe(before - cost({ input_tokens: p.input, output_tokens: p.output }));
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
    const tools = [
      { type: "function" as const, name: "lookup", description: "Looks a word up", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, strict: false },
    ];
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
      status: 404,
      error: { code: "not_found", param: "previous_response_id" },
    });
    await expect(client.responses.create({ model: "gw-chat-mini", input: [{ type: "file_search_call" } as never] })).rejects.toMatchObject({ status: 400, error: { param: "input[0].type" } });
    // Built-in tools other than web search (which a chat deployment leaves out, docs/providers.md) have no price or equivalent.
    await expect(client.responses.create({ model: "gw-chat-mini", input: "x", tools: [{ type: "file_search", vector_store_ids: ["vs_1"] }] })).rejects.toMatchObject({
      status: 400,
      error: { param: "tools[0]" },
    });
    await expect(client.responses.create({ model: "gw-chat-mini", input: "x", tools: [{ type: "namespace", name: "ns", tools: [{ type: "custom" }] } as never] })).rejects.toMatchObject({
      status: 400,
      error: { param: "tools[0].tools[0]" },
    });
    await expect(client.responses.retrieve("resp_unknown")).rejects.toMatchObject({ status: 404 });
    await expect(client.responses.create({ model: "gw-nope", input: "x" })).rejects.toMatchObject({ status: 404 });
  });

  it("is a route a key can be scoped to", async () => {
    const chatOnly = await createOrg(stack, { balanceMinor: 100_000, keyRoutes: ["chat"] });
    const scoped = new OpenAI({ baseURL: stack.baseUrl(), apiKey: chatOnly.secret, maxRetries: 0 });
    await expect(scoped.responses.create({ model: "gw-chat-mini", input: "x" })).rejects.toMatchObject({ status: 403, error: { code: "route_not_allowed" } });
    // Stored responses belong to the route too: a chat-only key may not read or delete them.
    const stored = await client.responses.create({ model: "gw-chat-mini", input: "kept for the scope test" });
    await expect(scoped.responses.retrieve(stored.id)).rejects.toMatchObject({ status: 403, error: { code: "route_not_allowed" } });
    await expect(scoped.responses.delete(stored.id)).rejects.toMatchObject({ status: 403, error: { code: "route_not_allowed" } });
    const responsesOnly = await createOrg(stack, { balanceMinor: 100_000, keyRoutes: ["responses"] });
    const ok = await new OpenAI({ baseURL: stack.baseUrl(), apiKey: responsesOnly.secret, maxRetries: 0 }).responses.create({ model: "gw-chat-mini", input: "scoped" });
    expect(ok.output_text).toBe("Echo: scoped");
  });
});

describe("stored responses (the RESPONSES bucket) through the official openai SDK", () => {
  const bytes = (...texts: string[]) => texts.reduce((n, t) => n + Buffer.byteLength(t), 0);
  // The SDK's Response type has no `store` field; the wire answer carries it, as OpenAI's does.
  const stored = (r: object | undefined) => (r as { store?: unknown } | undefined)?.store;

  it("stores a response by default: retrieve returns the same Response, output and usage", async () => {
    const created = await client.responses.create({ model: "gw-chat-mini", instructions: "Be brief.", input: "remember this answer", metadata: { topic: "store" } });
    expect(stored(created)).toBe(true);
    const got = await client.responses.retrieve(created.id);
    expect(got.id).toBe(created.id);
    expect(got.object).toBe("response");
    expect(stored(got)).toBe(true);
    expect(got.status).toBe("completed");
    expect(got.output).toEqual(created.output);
    expect(got.output_text).toBe("Echo: remember this answer");
    expect(got.usage).toEqual(created.usage);
    expect(got.instructions).toBe("Be brief.");
    expect(got.metadata).toEqual({ topic: "store" });
  });

  it("does not store with store: false (retrieve is a 404)", async () => {
    const created = await client.responses.create({ model: "gw-chat-mini", input: "forget this", store: false });
    expect(stored(created)).toBe(false);
    expect(created.output_text).toBe("Echo: forget this");
    await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404, error: { code: "not_found" } });
  });

  it("continues a conversation with previous_response_id: the stored turns come before the new input, the new instructions replace the old", async () => {
    const first = await client.responses.create({ model: "gw-chat-mini", instructions: "Be brief.", input: "My name is Ada" });
    expect(first.output_text).toBe("Echo: My name is Ada");
    // The fake counts one prompt token per byte of every message it was sent (markers left out).
    const alone = await client.responses.create({ model: "gw-chat-mini", instructions: "One word.", input: "[[fake:byte_tokens]]What is my name?", store: false });
    expect(alone.usage!.input_tokens).toBe(bytes("One word.", "What is my name?"));
    const next = await client.responses.create({ model: "gw-chat-mini", instructions: "One word.", input: "[[fake:byte_tokens]]What is my name?", previous_response_id: first.id });
    expect(next.output_text).toBe("Echo: What is my name?");
    expect(next.previous_response_id).toBe(first.id);
    expect(next.instructions).toBe("One word.");
    // Sent: the new instructions, the first turn's input and answer, the new input ("Be brief." is not carried over).
    expect(next.usage!.input_tokens).toBe(bytes("One word.", "My name is Ada", "Echo: My name is Ada", "What is my name?"));
    expect(next.usage!.input_tokens).toBeGreaterThan(alone.usage!.input_tokens);
    // A continuation is stored with the whole conversation: a third turn carries both earlier ones.
    const third = await client.responses.create({ model: "gw-chat-mini", input: "[[fake:byte_tokens]]And again?", previous_response_id: next.id });
    expect(third.usage!.input_tokens).toBe(bytes("My name is Ada", "Echo: My name is Ada", "What is my name?", "Echo: What is my name?", "And again?"));
    expect((await client.responses.retrieve(next.id)).previous_response_id).toBe(first.id);
  });

  it("continues after a function call: the stored tool call is answered by a function_call_output alone", async () => {
    const tools = [{ type: "function" as const, name: "lookup", parameters: { type: "object", properties: { text: { type: "string" } } }, strict: false }];
    const first = await client.responses.create({ model: "gw-chat-mini", input: "find stored gateways", tools });
    const call = first.output.find((o) => o.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no function call");
    const next = await client.responses.create({ model: "gw-chat-mini", tools, previous_response_id: first.id, input: [{ type: "function_call_output", call_id: call.call_id, output: "two found" }] });
    expect(next.output_text).toBe("Tool said: two found");
  });

  it("lists a stored response's input items, earlier turns included, newest first by default, page by page", async () => {
    const first = await client.responses.create({ model: "gw-chat-mini", instructions: "Not an item.", input: "first turn" });
    const next = await client.responses.create({ model: "gw-chat-mini", input: [{ role: "user", content: [{ type: "input_text", text: "second turn" }] }], previous_response_id: first.id });
    const asc = await client.responses.inputItems.list(next.id, { order: "asc" });
    expect(asc.data.map((i) => (i.type === "message" ? [i.role, i.content.map((c) => ("text" in c ? c.text : "")).join("")] : [i.type]))).toEqual([
      ["user", "first turn"],
      ["assistant", "Echo: first turn"],
      ["user", "second turn"],
    ]);
    expect(asc.has_more).toBe(false);
    const ids: string[] = [];
    for await (const item of client.responses.inputItems.list(next.id, { limit: 1 })) ids.push(item.id!);
    expect(ids).toEqual(asc.data.map((i) => i.id).reverse());
    await expect(client.responses.inputItems.list("resp_unknown")).rejects.toMatchObject({ status: 404 });
    for (const bad of [{ limit: 0 }, { limit: 101 }, { limit: 1.5 }]) {
      await expect(client.responses.inputItems.list(next.id, bad)).rejects.toMatchObject({ status: 400, error: { param: "limit", message: "'limit' must be an integer from 1 to 100." } });
    }
    await expect(client.responses.inputItems.list(next.id, { order: "up" as "asc" })).rejects.toMatchObject({ status: 400, error: { param: "order" } });
  });

  it("stores a streamed response before response.completed, which says store: true", async () => {
    const stream = client.responses.stream({ model: "gw-chat-mini", input: "stream and store" });
    let completed: object | undefined;
    for await (const ev of stream) if (ev.type === "response.completed") completed = ev.response;
    expect(stored(completed)).toBe(true);
    const final = await stream.finalResponse();
    const got = await client.responses.retrieve(final.id);
    expect(got.output_text).toBe("Echo: stream and store");
    expect(got.usage).toEqual(final.usage);
    const next = await client.responses.create({ model: "gw-chat-mini", input: "[[fake:byte_tokens]]more", previous_response_id: final.id });
    expect(next.usage!.input_tokens).toBe(bytes("stream and store", "Echo: stream and store", "more"));
  });

  it("deletes a stored response: DELETE answers the deletion object, then retrieve, DELETE and continuation are 404", async () => {
    const created = await client.responses.create({ model: "gw-chat-mini", input: "delete me" });
    const r = await fetch(`${stack.baseUrl()}/responses/${created.id}`, { method: "DELETE", headers: { authorization: `Bearer ${org.secret}` } });
    expect(r.status).toBe(200);
    expect(await r.json()).toEqual({ id: created.id, object: "response", deleted: true });
    await expect(client.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(client.responses.delete(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(client.responses.create({ model: "gw-chat-mini", input: "x", previous_response_id: created.id })).rejects.toMatchObject({ status: 404 });
    const kept = await client.responses.create({ model: "gw-chat-mini", input: "delete me through the SDK" });
    await client.responses.delete(kept.id);
    await expect(client.responses.retrieve(kept.id)).rejects.toMatchObject({ status: 404 });
  });

  it("scopes stored responses to their organization: another organization's key gets 404 for the id", async () => {
    const created = await client.responses.create({ model: "gw-chat-mini", input: "mine only" });
    const other = await createOrg(stack, { balanceMinor: 1_000_000 });
    const theirs = new OpenAI({ baseURL: stack.baseUrl(), apiKey: other.secret, maxRetries: 0 });
    await expect(theirs.responses.retrieve(created.id)).rejects.toMatchObject({ status: 404, error: { code: "not_found" } });
    await expect(theirs.responses.delete(created.id)).rejects.toMatchObject({ status: 404 });
    await expect(theirs.responses.create({ model: "gw-chat-mini", input: "x", previous_response_id: created.id })).rejects.toMatchObject({ status: 404 });
    // Still there for its owner.
    expect((await client.responses.retrieve(created.id)).output_text).toBe("Echo: mine only");
  });

  it("answers 404 naming an unknown previous_response_id, and holds no credit for it", async () => {
    const before = (await get("/credits")).body.balance_minor as number;
    await expect(client.responses.create({ model: "gw-chat-mini", input: "x", previous_response_id: "resp_0123456789abcdef" })).rejects.toMatchObject({
      status: 404,
      error: { code: "not_found", param: "previous_response_id", message: "Previous response with id 'resp_0123456789abcdef' not found." },
    });
    expect((await get("/credits")).body.balance_minor).toBe(before);
  });

  it("answers with store: false when the record is over DATA_PLANE_RESPONSES_MAX_BYTES", async () => {
    const small = await stack.addDataPlane({ DATA_PLANE_RESPONSES_MAX_BYTES: "2048" });
    const i = stack.dataPlanes.indexOf(small);
    const viaSmall = new OpenAI({ baseURL: stack.baseUrl(i), apiKey: org.secret, maxRetries: 0 });
    const big = await viaSmall.responses.create({ model: "gw-chat-mini", input: "y".repeat(1_500) });
    expect(stored(big)).toBe(false);
    await expect(client.responses.retrieve(big.id)).rejects.toMatchObject({ status: 404 });
    const fits = await viaSmall.responses.create({ model: "gw-chat-mini", input: "short" });
    expect(stored(fits)).toBe(true);
    // Any replica reads what another stored.
    expect((await client.responses.retrieve(fits.id)).output_text).toBe("Echo: short");
  });

  it("answers anyway, with store: false, when NATS is away; GET is a 503 meanwhile; storing resumes when it is back", async () => {
    await stack.stopNats();
    try {
      const r = await client.responses.create({ model: "gw-chat-mini", input: "nats is away" });
      expect(r.output_text).toBe("Echo: nats is away");
      expect(stored(r)).toBe(false);
      await expect(client.responses.retrieve(r.id)).rejects.toMatchObject({ status: 503 });
    } finally {
      await stack.startNats();
    }
    await eventually(async () => {
      const r = await client.responses.create({ model: "gw-chat-mini", input: "nats is back" });
      expect(stored(r)).toBe(true);
      expect((await client.responses.retrieve(r.id)).output_text).toBe("Echo: nats is back");
      return true;
    }, 20_000);
  });
});
