import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg, type TestOrg } from "../support/orgs.ts";
import type { AnyBody, UsageBody } from "../support/api.ts";

/**
 * The Responses API to providers in their own shape, through the official openai SDK: natively to
 * OpenAI (gw-gpt), and translated straight to the Messages API for Anthropic (gw-claude).
 */
let stack: Stack;
let org: TestOrg;
let client: OpenAI;

async function get(path: string): Promise<{ status: number; body: AnyBody }> {
  const r = await fetch(`${stack.baseUrl()}${path}`, { headers: { authorization: `Bearer ${org.secret}` } });
  return { status: r.status, body: (await r.json()) as AnyBody };
}

/** What the fake upstream last received on a path. */
function lastSent(path: string): AnyBody {
  const r = [...stack.fake.requests].reverse().find((q) => q.path === path);
  if (!r) throw new Error(`nothing sent to ${path}`);
  return r.body as AnyBody;
}

beforeAll(async () => {
  stack = await startStack("responses-native");
  await stack.applyCatalog({
    models: [
      {
        // The OpenAI deployment fails; the chat-completions backup answers the same Responses request.
        id: "gw-gpt-flaky",
        routes: ["chat"],
        context_window: 128_000,
        max_output_tokens: 4_096,
        input_price_minor_per_mtok: 1_000_000,
        output_price_minor_per_mtok: 2_000_000,
        deployments: [
          { provider: "fake-openai", upstream_model: "fake-gpt+status=503", priority: 0 },
          { provider: "fake-backup", upstream_model: "fake-chat-backup", priority: 1 },
        ],
      },
    ],
  });
  org = await createOrg(stack, { balanceMinor: 50_000_000, models: ["gw-gpt", "gw-gpt-flaky", "gw-claude"] });
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  await eventually(() => client.responses.create({ model: "gw-gpt-flaky", input: "warm up", store: false }), 15_000, "gw-gpt-flaky visible");
});
afterAll(async () => {
  await stack?.stop();
});

describe("natively to OpenAI's Responses API", () => {
  it("passes the request through (model rewritten, store: false to the provider) and bills the provider's cached and reasoning counts", async () => {
    const { data, response } = await client.responses
      .create({ model: "gw-gpt", instructions: "Be exact.", input: "[[fake:cached=3,reasoning=12]] native please", reasoning: { effort: "high" }, metadata: { run: "n1" } })
      .withResponse();
    const sent = lastSent("/v1/responses");
    // The output limit the hold covered (the catalog's, none being asked) goes with it.
    expect(sent).toMatchObject({
      model: "fake-gpt",
      instructions: "Be exact.",
      input: "[[fake:cached=3,reasoning=12]] native please",
      reasoning: { effort: "high" },
      store: false,
      metadata: { run: "n1" },
      max_output_tokens: 128_000,
    });
    expect(sent.previous_response_id).toBeUndefined();
    // The provider's Response, with the public model and what the gateway owns.
    expect(data.model).toBe("gw-gpt");
    expect((data as unknown as AnyBody).store).toBe(true);
    expect(data.output_text).toBe("Echo: native please");
    expect(data.output.map((o) => o.type)).toEqual(["reasoning", "message"]);
    expect(data.usage).toMatchObject({ input_tokens_details: { cached_tokens: 3 }, output_tokens_details: { reasoning_tokens: 12 } });
    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)).body as UsageBody;
    expect(record.usage).toMatchObject({ input_tokens: data.usage!.input_tokens, output_tokens: data.usage!.output_tokens, cached_input_tokens: 3, reasoning_tokens: 12 });
    expect((record.line_items as AnyBody[]).find((i) => i.item === "cached_input_tokens")).toMatchObject({ quantity: 3, unit_price_minor: 125_000 });
    // Stored by the gateway under the provider's id.
    expect((await client.responses.retrieve(data.id)).output_text).toBe("Echo: native please");
  });

  it("streams the provider's events: reasoning item, text deltas, then response.completed with usage, held until billed", async () => {
    const stream = client.responses.stream({ model: "gw-gpt", input: "[[fake:reasoning=5]] stream natively now" });
    const types: string[] = [];
    let deltas = "";
    let completed: AnyBody | undefined;
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === "response.output_text.delta") deltas += ev.delta;
      if (ev.type === "response.completed") completed = ev.response as unknown as AnyBody;
      if (ev.type === "response.created") expect(ev.response.model).toBe("gw-gpt");
    }
    expect(lastSent("/v1/responses")).toMatchObject({ model: "fake-gpt", stream: true, store: false });
    expect(types.slice(0, 2)).toEqual(["response.created", "response.in_progress"]);
    expect(types.at(-1)).toBe("response.completed");
    expect(deltas).toBe("Echo: stream natively now");
    expect(completed).toMatchObject({ model: "gw-gpt", store: true, usage: { output_tokens_details: { reasoning_tokens: 5 } } });
    const final = await stream.finalResponse();
    expect(final.output_text).toBe(deltas);
    expect((await client.responses.retrieve(final.id)).output_text).toBe(deltas);
  });

  it("continues a stored conversation at the provider with the earlier turns as input items, never its previous_response_id", async () => {
    const tools = [{ type: "function" as const, name: "lookup", parameters: { type: "object", properties: { text: { type: "string" } } }, strict: false }];
    const first = await client.responses.create({ model: "gw-gpt", input: "find native gateways", tools });
    const call = first.output.find((o) => o.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no function call");
    expect(JSON.parse(call.arguments)).toEqual({ text: "find native gateways" });
    const next = await client.responses.create({ model: "gw-gpt", tools, previous_response_id: first.id, input: [{ type: "function_call_output", call_id: call.call_id, output: "four found" }] });
    expect(next.output_text).toBe("Tool said: four found");
    expect(next.previous_response_id).toBe(first.id);
    const sent = lastSent("/v1/responses");
    expect(sent.previous_response_id).toBeUndefined();
    expect(sent.input).toEqual([
      { type: "message", role: "user", content: [{ type: "input_text", text: "find native gateways" }] },
      { type: "function_call", call_id: call.call_id, name: "lookup", arguments: call.arguments },
      { type: "function_call_output", call_id: call.call_id, output: "four found" },
    ]);
  });

  it("refuses what the provider would charge beyond the hold or the bill (background, stored prompts and conversations, priority tier), sending nothing", async () => {
    const before = stack.fake.requests.length;
    const refused: Array<[AnyBody, string]> = [
      [{ background: true }, "background"],
      [{ prompt: { id: "pmpt_someone_elses" } }, "prompt"],
      [{ conversation: "conv_someone_elses" }, "conversation"],
      [{ service_tier: "priority" }, "service_tier"],
    ];
    for (const [extra, param] of refused) {
      await expect(client.responses.create({ model: "gw-gpt", input: "write a very long novel", ...extra } as never)).rejects.toMatchObject({ status: 400, error: { code: "invalid_request", param } });
    }
    // Nor files of the gateway's account, or images the hold does not count, by another way in.
    await expect(
      client.responses.create({
        model: "gw-gpt",
        input: [{ role: "user", content: [{ type: "input_image", image_url: "https://example.com/a.png", file_id: "file-someone_elses", detail: "auto" }] }],
      } as never),
    ).rejects.toMatchObject({ status: 400, error: { param: "input[0].content[0].image_url" } });
    const toolTurn = (output: unknown) => [
      { type: "function_call", call_id: "call_1", name: "lookup", arguments: "{}" },
      { type: "function_call_output", call_id: "call_1", output },
    ];
    await expect(client.responses.create({ model: "gw-gpt", input: toolTurn([{ type: "input_image", image_url: "https://example.com/big.png" }]) } as never)).rejects.toMatchObject({
      status: 400,
      error: { param: "input[1].output[0]" },
    });
    expect(stack.fake.requests.length).toBe(before);
    // A tool output in text parts goes through.
    const parts = await client.responses.create({
      model: "gw-gpt",
      input: toolTurn([
        { type: "input_text", text: "three " },
        { type: "input_text", text: "found" },
      ]),
    } as never);
    expect(parts.output_text).toBe("Tool said: three found");
    // The cheaper tiers go through as sent.
    await client.responses.create({ model: "gw-gpt", input: "flex is fine", service_tier: "flex" });
    expect(lastSent("/v1/responses")).toMatchObject({ service_tier: "flex" });
  });

  it("bills an answer whose provider reported no usage from its output, not as empty", async () => {
    const { data, response } = await client.responses.create({ model: "gw-gpt", input: "[[fake:nousage]] count every one of these delivered words please" }).withResponse();
    expect(data.output_text).toBe("Echo: count every one of these delivered words please");
    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)).body as UsageBody;
    expect(record.usage).toMatchObject({ estimated: true });
    expect(record.usage.output_tokens).toBeGreaterThanOrEqual(Math.ceil(data.output_text.length / 4));
  });

  it("falls back from a failing OpenAI deployment to a chat-completions one, answering the same Response shape", async () => {
    const r = await client.responses.create({ model: "gw-gpt-flaky", input: "fall back please" });
    expect(r.output_text).toBe("Echo: fall back please");
    expect(r.model).toBe("gw-gpt-flaky");
    expect(lastSent("/v1/chat/completions")).toMatchObject({ model: "fake-chat-backup" });
    const s = client.responses.stream({ model: "gw-gpt-flaky", input: "stream the fallback" });
    for await (const _ of s) {
      // drained
    }
    expect((await s.finalResponse()).output_text).toBe("Echo: stream the fallback");
  });
});

describe("to Anthropic deployments through the Messages API, not the chat shape", () => {
  it("sends instructions as system and reasoning.effort as extended thinking; thinking comes back as a reasoning item", async () => {
    const r = await client.responses.create({ model: "gw-claude", instructions: "Think first.", input: "why is the sky blue", reasoning: { effort: "low" }, max_output_tokens: 4_000 });
    const sent = lastSent("/v1/messages");
    expect(sent).toMatchObject({
      model: "fake-claude",
      system: "Think first.",
      max_tokens: 4_000,
      thinking: { type: "enabled", budget_tokens: 1_024 },
      messages: [{ role: "user", content: [{ type: "text", text: "why is the sky blue" }] }],
    });
    expect(r.output_text).toBe("Echo: why is the sky blue");
    const reasoning = r.output.find((o) => o.type === "reasoning");
    expect(reasoning).toMatchObject({ summary: [{ type: "summary_text", text: "Thinking about: why is the sky blue" }] });
    expect(r.usage!.output_tokens).toBeGreaterThan(0);
    // Sent back by a stateless client, the reasoning item is Claude's thinking block again, signature included.
    if (reasoning?.type !== "reasoning") throw new Error("no reasoning item");
    await client.responses.create({
      model: "gw-claude",
      store: false,
      reasoning: { effort: "low" },
      max_output_tokens: 4_000,
      input: [{ role: "user", content: "why is the sky blue" }, reasoning, { role: "assistant", content: r.output_text }, { role: "user", content: "and at sunset?" }],
    });
    expect(lastSent("/v1/messages").messages[1]).toEqual({
      role: "assistant",
      content: [
        { type: "thinking", thinking: "Thinking about: why is the sky blue", signature: `sig_${Buffer.from("Thinking about: why is the sky blue").toString("base64")}` },
        { type: "text", text: "Echo: why is the sky blue" },
      ],
    });
  });

  it("streams thinking as reasoning summary deltas and text as output_text deltas, ending with usage", async () => {
    const stream = client.responses.stream({ model: "gw-claude", input: "stream claude thoughts", reasoning: { effort: "medium" } });
    let thinking = "";
    let text = "";
    const types: string[] = [];
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === "response.reasoning_summary_text.delta") thinking += ev.delta;
      if (ev.type === "response.output_text.delta") text += ev.delta;
    }
    // No max_output_tokens: the catalog's limit (64,000 for gw-claude, what the hold covered); the
    // thinking budget is the asked effort's (4,096), capped at half the limit.
    expect(lastSent("/v1/messages")).toMatchObject({ stream: true, max_tokens: 64_000, thinking: { type: "enabled", budget_tokens: 4_096 } });
    expect(thinking).toBe("Thinking about: stream claude thoughts");
    expect(text).toBe("Echo: stream claude thoughts");
    expect(types.at(-1)).toBe("response.completed");
    const final = await stream.finalResponse();
    expect(final.output.map((o) => o.type)).toEqual(["reasoning", "message"]);
    expect(final.usage!.output_tokens).toBeGreaterThan(0);
  });

  it("round-trips a function tool as tool_use and tool_result blocks", async () => {
    const tools = [{ type: "function" as const, name: "lookup", parameters: { type: "object", properties: { text: { type: "string" } } }, strict: false }];
    const first = await client.responses.create({ model: "gw-claude", input: "look claude up", tools, parallel_tool_calls: false });
    expect(lastSent("/v1/messages")).toMatchObject({ tools: [{ name: "lookup", input_schema: { type: "object" } }], tool_choice: { type: "auto", disable_parallel_tool_use: true } });
    const call = first.output.find((o) => o.type === "function_call");
    if (call?.type !== "function_call") throw new Error("no function call");
    const next = await client.responses.create({ model: "gw-claude", tools, previous_response_id: first.id, input: [{ type: "function_call_output", call_id: call.call_id, output: "found it" }] });
    expect(next.output_text).toBe("Tool said: found it");
    expect(lastSent("/v1/messages").messages).toEqual([
      { role: "user", content: [{ type: "text", text: "look claude up" }] },
      { role: "assistant", content: [{ type: "tool_use", id: call.call_id, name: "lookup", input: { text: "look claude up" } }] },
      { role: "user", content: [{ type: "tool_result", tool_use_id: call.call_id, content: "found it" }] },
    ]);
  });

  it("answers text.format json_schema with JSON the schema describes, through Claude's forced tool", async () => {
    const schema = { type: "object", properties: { topic: { type: "string" }, words: { type: "integer" } }, required: ["topic", "words"], additionalProperties: false };
    const r = await client.responses.create({ model: "gw-claude", input: "three little words", text: { format: { type: "json_schema", name: "summary", schema, strict: true } } });
    expect(lastSent("/v1/messages")).toMatchObject({ tool_choice: { type: "tool", name: "summary" } });
    expect(JSON.parse(r.output_text)).toEqual({ topic: "three little words", words: 3 });
    expect(r.output.map((o) => o.type)).toEqual(["message"]);
  });
});
