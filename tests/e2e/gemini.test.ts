import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { eventually } from "@gateway/testing";
import type { RecordedRequest } from "@gateway/fake-upstream";
import { FAKE_UPSTREAM_API_KEY } from "../../scripts/lib/demo-catalog.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";
import type { AnyBody, UsageBody } from "../support/api.ts";

/**
 * A model on a `gemini` provider (Google's Gemini API, faked under /gemini/v1beta) through the
 * official SDKs on all three client APIs. The fake counts one token per word of text, so every
 * count below follows from the prompt; costs use gw-gemini's prices in the demo catalog.
 */
const PRICE = { input: 350_000, cached: 87_500, output: 2_800_000 };
/** Gemini bills thinking at the output price: the catalog gives gw-gemini no reasoning price of its own. */
const cost = (u: { input: number; cached?: number; output: number; reasoning?: number }) =>
  Math.ceil(((u.input - (u.cached ?? 0)) * PRICE.input + (u.cached ?? 0) * PRICE.cached + u.output * PRICE.output) / 1_000_000);

interface GeminiPart {
  text?: string;
  thoughtSignature?: string;
  functionCall?: { name: string; args: unknown };
  functionResponse?: { name: string; response: unknown };
}
interface GeminiRequest {
  contents: Array<{ role: string; parts: GeminiPart[] }>;
  systemInstruction?: { parts: GeminiPart[] };
  tools?: Array<{ functionDeclarations: Array<{ name: string; parameters?: unknown }> }>;
  generationConfig?: Record<string, unknown>;
}

let stack: Stack;
let openai: OpenAI;
let anthropic: Anthropic;

/** The last request that reached the fake Gemini API, and its body. */
function sentToGemini(): { request: RecordedRequest; body: GeminiRequest } {
  const request = [...stack.fake.requests].reverse().find((r) => r.path.startsWith("/gemini/"));
  if (!request) throw new Error("nothing reached the Gemini fake");
  return { request, body: request.body as GeminiRequest };
}

async function get(path: string, secret = stack.demo.secret): Promise<AnyBody> {
  const r = await fetch(`${stack.baseUrl()}${path}`, { headers: { authorization: `Bearer ${secret}` } });
  return r.json();
}

const TOP_UP = 1_000_000;

/** A fresh organization with gw-gemini and TOP_UP credits, so its balance moves by one request's cost alone. */
async function freshOrg(): Promise<{ secret: string; client: OpenAI }> {
  const org = await createOrg(stack, { balanceMinor: TOP_UP, models: ["gw-gemini"] });
  const client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: org.secret, maxRetries: 0 });
  await eventually(async () => ((await get("/models", org.secret)).data?.length ? true : undefined), 15_000, "gw-gemini visible to the new org");
  return { secret: org.secret, client };
}

/** Waits until the organization's balance is the top-up less `cost` (the usage event applied by the ledger). */
async function expectBalance(secret: string, cost: number): Promise<void> {
  await eventually(async () => ((await get("/credits", secret)).balance_minor === TOP_UP - cost ? true : undefined), 5_000, `balance ${TOP_UP - cost}`);
}

beforeAll(async () => {
  stack = await startStack("gemini");
  openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
  // The Anthropic SDK appends /v1/messages to its base URL.
  anthropic = new Anthropic({ baseURL: stack.dataPlanes[0]!.url, apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

describe("chat completions to Gemini through the openai SDK", () => {
  it("answers, sends the system prompt as systemInstruction with the key in x-goog-api-key, and bills at the model's prices", async () => {
    const org = await freshOrg();
    const { data, response } = await org.client.chat.completions
      .create({
        model: "gw-gemini",
        messages: [
          { role: "system", content: "Be terse." },
          { role: "user", content: "Hello there Gemini" },
        ],
      })
      .withResponse();
    expect(data.model).toBe("gw-gemini");
    expect(data.choices[0]!.message.content).toBe("Echo: Hello there Gemini");
    expect(data.choices[0]!.finish_reason).toBe("stop");
    // 2 + 3 prompt words; 4 answer words.
    expect(data.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 4, total_tokens: 9 });
    expect(response.headers.get("x-gateway-provider")).toBe("fake-gemini");
    expect(response.headers.get("x-gateway-upstream-model")).toBe("fake-gemini");

    const { request, body } = sentToGemini();
    // No limit: the model's 65,536 tokens are held in tranches, so Gemini is asked for a stream and
    // the answer read whole from it (docs/billing.md, "Holds in tranches"); with a limit within a
    // tranche it is asked for generateContent (below, "prices a prompt above 200k tokens").
    expect(request.path).toBe("/gemini/v1beta/models/fake-gemini:streamGenerateContent");
    expect(request.headers["x-goog-api-key"]).toBe(FAKE_UPSTREAM_API_KEY);
    expect(request.headers.authorization).toBeUndefined();
    expect(body.systemInstruction).toEqual({ parts: [{ text: "Be terse." }] });
    expect(body.contents).toEqual([{ role: "user", parts: [{ text: "Hello there Gemini" }] }]);

    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`, org.secret)) as UsageBody;
    expect(record).toMatchObject({ model: "gw-gemini", provider: "fake-gemini", route: "chat", usage: { input_tokens: 5, output_tokens: 4, estimated: false } });
    // 5 × 0.35 + 4 × 2.8 = 12.95 → 13
    expect(record.cost_credits_minor).toBe(13);
    expect(cost({ input: 5, output: 4 })).toBe(13);
    await expectBalance(org.secret, 13);
  });

  it("streams with include_usage: the role first, text deltas, the finish, then the usage chunk; complete though Gemini sends no [DONE]", async () => {
    const { data: stream, response } = await openai.chat.completions
      .create({ model: "gw-gemini", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "stream these words please" }] })
      .withResponse();
    const chunks: OpenAI.ChatCompletionChunk[] = [];
    for await (const c of stream) chunks.push(c);
    expect(chunks[0]!.choices[0]!.delta.role).toBe("assistant");
    expect(new Set(chunks.map((c) => c.id)).size).toBe(1);
    expect(chunks.map((c) => c.choices[0]?.delta?.content ?? "").join("")).toBe("Echo: stream these words please");
    expect(chunks.at(-2)!.choices[0]!.finish_reason).toBe("stop");
    expect(chunks.at(-1)!.choices).toEqual([]);
    expect(chunks.at(-1)!.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 5 });
    expect(sentToGemini().request.path).toBe("/gemini/v1beta/models/fake-gemini:streamGenerateContent");
    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)) as UsageBody;
    expect(record).toMatchObject({ stream: true, usage: { input_tokens: 4, output_tokens: 5, estimated: false } });
    expect(record.cost_credits_minor).toBe(cost({ input: 4, output: 5 }));
  });

  it("a stream Gemini breaks off before its finishing chunk ends with an error event, not as complete", async () => {
    const stream = await openai.chat.completions.create({ model: "gw-gemini", stream: true, messages: [{ role: "user", content: "[[fake:cut=2]] one two three four" }] });
    let text = "";
    const err = await (async () => {
      for await (const c of stream) text += c.choices[0]?.delta?.content ?? "";
    })().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect(String((err as Error).message)).toMatch(/ended the stream before it was complete/);
    expect(text).toBe("Echo: one");
  });

  it("round-trips a tool call: declared in Gemini's schema subset, called, answered with a functionResponse named after the call", async () => {
    const tools: OpenAI.ChatCompletionTool[] = [
      {
        type: "function",
        function: {
          name: "lookup",
          description: "Looks things up",
          strict: true,
          parameters: { type: "object", additionalProperties: false, properties: { text: { type: "string" } }, required: ["text"] },
        },
      },
    ];
    const messages: OpenAI.ChatCompletionMessageParam[] = [{ role: "user", content: "find the answer" }];
    const first = await openai.chat.completions.create({ model: "gw-gemini", tools, messages });
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    const call = first.choices[0]!.message.tool_calls![0]! as OpenAI.ChatCompletionMessageFunctionToolCall;
    expect(call).toMatchObject({ type: "function", function: { name: "lookup" } });
    expect(JSON.parse(call.function.arguments)).toEqual({ text: "find the answer" });
    expect(call.id).toMatch(/^call_[0-9a-f]{24}_ts_[A-Za-z0-9_-]+$/);
    // Gemini refuses additionalProperties (the fake too): the parameters went in its subset.
    expect(sentToGemini().body.tools).toEqual([
      { functionDeclarations: [{ name: "lookup", description: "Looks things up", parameters: { type: "OBJECT", properties: { text: { type: "STRING" } }, required: ["text"] } }] },
    ]);

    const second = await openai.chat.completions.create({
      model: "gw-gemini",
      tools,
      messages: [...messages, first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "forty-two" }],
    });
    expect(second.choices[0]!.message.content).toBe("Tool said: forty-two");
    expect(second.choices[0]!.finish_reason).toBe("stop");
    const { body } = sentToGemini();
    expect(body.contents.slice(1)).toEqual([
      // The call goes back with the thought signature Gemini put on it, carried in the call's id.
      { role: "model", parts: [{ functionCall: { name: "lookup", args: { text: "find the answer" } }, thoughtSignature: Buffer.from("fake-thought:lookup").toString("base64") }] },
      { role: "user", parts: [{ functionResponse: { name: "lookup", response: { output: "forty-two" } } }] },
    ]);
  });

  it("structured output: response_format json_schema reaches Gemini as responseSchema, and the answer parses and validates", async () => {
    const City = z.object({ city: z.string(), population: z.number().int(), districts: z.array(z.string()).min(1), nickname: z.string().nullable() });
    const r = await openai.chat.completions.parse({ model: "gw-gemini", response_format: zodResponseFormat(City, "city"), messages: [{ role: "user", content: "name a big city" }] });
    const parsed = r.choices[0]!.message.parsed;
    expect(City.parse(parsed)).toEqual({ city: "name a big city", population: 4, districts: ["name a big city"], nickname: "name a big city" });
    expect(r.choices[0]!.finish_reason).toBe("stop");
    const g = sentToGemini().body.generationConfig!;
    expect(g.responseMimeType).toBe("application/json");
    expect(g.responseSchema).toEqual({
      type: "OBJECT",
      // zod bounds an int to the safe integers; Gemini takes minimum and maximum.
      properties: {
        city: { type: "STRING" },
        population: { type: "INTEGER", minimum: Number.MIN_SAFE_INTEGER, maximum: Number.MAX_SAFE_INTEGER },
        districts: { type: "ARRAY", items: { type: "STRING" }, minItems: 1 },
        nickname: { type: "STRING", nullable: true },
      },
      propertyOrdering: ["city", "population", "districts", "nickname"],
      required: ["city", "population", "districts", "nickname"],
    });
  });

  it("bills cached and thinking tokens at their prices: cache reads at the cached price, thoughts as output", async () => {
    const org = await freshOrg();
    const { data, response } = await org.client.chat.completions
      .create({ model: "gw-gemini", reasoning_effort: "low", messages: [{ role: "user", content: "[[fake:cached=3,reasoning=7]] think about these five words" }] })
      .withResponse();
    expect(sentToGemini().body.generationConfig).toEqual({ maxOutputTokens: 65_536, thinkingConfig: { thinkingBudget: 1024 } });
    // 5 prompt words, 3 of them cached; 6 answer words and 7 thinking tokens.
    expect(data.usage).toMatchObject({ prompt_tokens: 5, completion_tokens: 13, prompt_tokens_details: { cached_tokens: 3 }, completion_tokens_details: { reasoning_tokens: 7 } });
    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`, org.secret)) as UsageBody;
    expect(record.usage).toMatchObject({ input_tokens: 5, cached_input_tokens: 3, output_tokens: 13, reasoning_tokens: 7, estimated: false });
    expect(record.line_items).toEqual([
      { item: "input_tokens", quantity: 2, unit_price_minor: PRICE.input, per: "1M tokens" },
      { item: "cached_input_tokens", quantity: 3, unit_price_minor: PRICE.cached, per: "1M tokens" },
      { item: "output_tokens", quantity: 6, unit_price_minor: PRICE.output, per: "1M tokens" },
      { item: "reasoning_tokens", quantity: 7, unit_price_minor: PRICE.output, per: "1M tokens" },
    ]);
    // 2 × 0.35 + 3 × 0.0875 + 13 × 2.8 = 0.7 + 0.2625 + 36.4 = 37.3625 → 38
    expect(record.cost_credits_minor).toBe(38);
    expect(cost({ input: 5, cached: 3, output: 13 })).toBe(38);
    await expectBalance(org.secret, 38);

    // The same from a stream's finishing chunk: 4 words, 2 cached; 5 answer words, 4 thinking tokens.
    const { data: stream, response: streamed } = await openai.chat.completions
      .create({ model: "gw-gemini", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "[[fake:cached=2,reasoning=4]] stream a short answer" }] })
      .withResponse();
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const c of stream) if (c.usage) usage = c.usage;
    expect(usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 9, prompt_tokens_details: { cached_tokens: 2 }, completion_tokens_details: { reasoning_tokens: 4 } });
    const streamedRecord = (await get(`/usage/${streamed.headers.get("x-gateway-trace-id")}`)) as UsageBody;
    // 2 × 0.35 + 2 × 0.0875 + 9 × 2.8 = 0.7 + 0.175 + 25.2 = 26.075 → 27
    expect(streamedRecord.cost_credits_minor).toBe(27);
  });

  it("prices a prompt above 200k tokens at the long-context prices, every token of it, and holds for them", async () => {
    const { secret, client } = await freshOrg();
    // 210,000 words: above gw-gemini's long-context threshold (200,000 tokens); the fake answers 3 words.
    const content = `[[fake:words=3]] ${"w ".repeat(210_000)}`;
    const body = JSON.stringify({ model: "gw-gemini", max_tokens: 100, messages: [{ role: "user", content }] });
    const dry = await fetch(`${stack.baseUrl()}/chat/completions`, {
      method: "POST",
      headers: { authorization: `Bearer ${secret}`, "content-type": "application/json", "x-gateway-dry-run": "true" },
      body,
    });
    const estimate = (await dry.json()) as AnyBody;
    // The hold prices the prompt bound at the long-context input price (above the threshold too).
    expect(estimate.lines).toMatchObject([
      { item: "input_tokens", unit_price_minor: 700_000 },
      { item: "output_tokens", quantity: 100, unit_price_minor: 4_200_000 },
    ]);
    const { data, response } = await client.chat.completions.create({ model: "gw-gemini", max_tokens: 100, messages: [{ role: "user", content }] }).withResponse();
    expect(data.usage).toMatchObject({ prompt_tokens: 210_000, completion_tokens: 3 });
    const record = (await get(`/usage/${response.headers.get("x-request-id")}`, secret)) as UsageBody;
    expect(record.line_items).toEqual([
      { item: "input_tokens", quantity: 210_000, unit_price_minor: 700_000, per: "1M tokens" },
      { item: "output_tokens", quantity: 3, unit_price_minor: 4_200_000, per: "1M tokens" },
    ]);
    // 210,000 × 0.7 + 3 × 4.2 = 147,000 + 12.6 → 147,013 (at the normal prices it would be 73,509).
    expect(record.cost_credits_minor).toBe(147_013);
    await expectBalance(secret, 147_013);
  });

  it("a prompt Gemini blocks is a 400 naming the block reason, answer or stream, and nothing is billed", async () => {
    const err = await openai.chat.completions.create({ model: "gw-gemini", messages: [{ role: "user", content: "[[fake:block=PROHIBITED_CONTENT]] something forbidden" }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).message).toContain("PROHIBITED_CONTENT");
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).param).toBe("messages");
    const requestId = (err as InstanceType<typeof OpenAI.BadRequestError>).headers?.get("x-request-id");
    expect(requestId).toBeTruthy();
    // On record with its attempt, at nothing: Gemini does not bill a blocked prompt.
    const usage = await fetch(`${stack.baseUrl()}/usage/${requestId}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
    expect(usage.status).toBe(200);
    const record = (await usage.json()) as UsageBody;
    expect(record).toMatchObject({ status: 400, cost_credits_minor: 0, usage: { input_tokens: 0, output_tokens: 0 } });
    expect(record.attempts).toMatchObject([{ attempt: 1, provider: "fake-gemini", outcome: "failed", cost_minor: 0, payer: "none" }]);

    const streamed = await openai.chat.completions.create({ model: "gw-gemini", stream: true, messages: [{ role: "user", content: "[[fake:block]] forbidden stream" }] }).catch((e: unknown) => e);
    expect(streamed).toBeInstanceOf(OpenAI.BadRequestError);
    expect((streamed as Error).message).toContain("SAFETY");
    const messages = await anthropic.messages.create({ model: "gw-gemini", max_tokens: 50, messages: [{ role: "user", content: "[[fake:block]] forbidden message" }] }).catch((e: unknown) => e);
    expect(messages).toBeInstanceOf(Anthropic.BadRequestError);
    expect((messages as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({ type: "error", error: { type: "invalid_request_error" } });
  });
});

describe("/v1/messages to Gemini through the Anthropic SDK", () => {
  it("creates and streams a message, billed at the model's prices", async () => {
    const { data, response } = await anthropic.messages.create({ model: "gw-gemini", max_tokens: 50, system: "Be brief.", messages: [{ role: "user", content: "hello messages" }] }).withResponse();
    expect(data).toMatchObject({ type: "message", role: "assistant", model: "gw-gemini", stop_reason: "end_turn", content: [{ type: "text", text: "Echo: hello messages" }] });
    expect(data.usage).toMatchObject({ input_tokens: 4, output_tokens: 3 });
    expect(sentToGemini().body).toMatchObject({ systemInstruction: { parts: [{ text: "Be brief." }] }, generationConfig: { maxOutputTokens: 50 } });
    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)) as UsageBody;
    expect(record).toMatchObject({ route: "messages", model: "gw-gemini" });
    expect(record.cost_credits_minor).toBe(cost({ input: 4, output: 3 }));

    const stream = anthropic.messages.stream({ model: "gw-gemini", max_tokens: 50, messages: [{ role: "user", content: "stream in anthropic shape" }] });
    const types: string[] = [];
    stream.on("streamEvent", (e) => types.push(e.type));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "Echo: stream in anthropic shape" }]);
    expect(final.stop_reason).toBe("end_turn");
    expect(final.usage).toMatchObject({ input_tokens: 4, output_tokens: 5 });
    expect(types[0]).toBe("message_start");
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
  });

  it("round-trips a tool call, answer and stream", async () => {
    const tools: Anthropic.Tool[] = [{ name: "lookup", description: "Looks things up", input_schema: { type: "object", properties: { text: { type: "string" } } } }];
    const first = await anthropic.messages.create({ model: "gw-gemini", max_tokens: 100, tools, messages: [{ role: "user", content: "find the answer" }] });
    expect(first.stop_reason).toBe("tool_use");
    const call = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === "tool_use")!;
    expect(call).toMatchObject({ name: "lookup", input: { text: "find the answer" } });
    const second = await anthropic.messages.create({
      model: "gw-gemini",
      max_tokens: 100,
      tools,
      messages: [
        { role: "user", content: "find the answer" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: call.id, content: "forty-two" }] },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "Tool said: forty-two" }]);
    const parts = sentToGemini().body.contents.flatMap((c) => c.parts);
    expect(parts.find((p) => p.functionCall)?.thoughtSignature).toBe(Buffer.from("fake-thought:lookup").toString("base64"));
    expect(parts.find((p) => p.functionResponse)?.functionResponse).toEqual({ name: "lookup", response: { output: "forty-two" } });

    const streamed = await anthropic.messages.stream({ model: "gw-gemini", max_tokens: 100, tools, messages: [{ role: "user", content: "stream a tool call" }] }).finalMessage();
    expect(streamed.stop_reason).toBe("tool_use");
    expect(streamed.content[0]).toMatchObject({ type: "tool_use", name: "lookup", input: { text: "stream a tool call" } });
  });
});

describe("/v1/responses to Gemini through the openai SDK", () => {
  it("answers with output text, instructions as systemInstruction, usage billed", async () => {
    const { data, response } = await openai.responses.create({ model: "gw-gemini", instructions: "Be brief.", input: "Hello responses API" }).withResponse();
    expect(data).toMatchObject({ object: "response", status: "completed", model: "gw-gemini", output_text: "Echo: Hello responses API" });
    expect(data.usage).toMatchObject({ input_tokens: 5, output_tokens: 4 });
    expect(sentToGemini().body.systemInstruction).toEqual({ parts: [{ text: "Be brief." }] });
    const record = (await get(`/usage/${response.headers.get("x-gateway-trace-id")}`)) as UsageBody;
    expect(record).toMatchObject({ route: "responses", model: "gw-gemini" });
    expect(record.cost_credits_minor).toBe(cost({ input: 5, output: 4 }));
  });

  it("streams the event sequence the SDK consumes", async () => {
    const stream = openai.responses.stream({ model: "gw-gemini", input: "stream these words please" });
    const types: string[] = [];
    let deltas = "";
    for await (const ev of stream) {
      types.push(ev.type);
      if (ev.type === "response.output_text.delta") deltas += ev.delta;
    }
    const final = await stream.finalResponse();
    expect(types[0]).toBe("response.created");
    expect(types.at(-1)).toBe("response.completed");
    expect(deltas).toBe("Echo: stream these words please");
    expect(final.output_text).toBe(deltas);
    expect(final.usage).toMatchObject({ input_tokens: 4, output_tokens: 5 });
  });

  it("round-trips a function call through function_call_output", async () => {
    const tools: OpenAI.Responses.FunctionTool[] = [
      { type: "function", name: "lookup", description: "Looks a word up", parameters: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, strict: false },
    ];
    const first = await openai.responses.create({ model: "gw-gemini", input: "find gateways", tools, store: false });
    const call = first.output.find((o): o is OpenAI.Responses.ResponseFunctionToolCall => o.type === "function_call")!;
    expect(JSON.parse(call.arguments)).toEqual({ text: "find gateways" });
    const second = await openai.responses.create({
      model: "gw-gemini",
      tools,
      store: false,
      input: [
        { role: "user", content: "find gateways" },
        { type: "function_call", call_id: call.call_id, name: call.name, arguments: call.arguments },
        { type: "function_call_output", call_id: call.call_id, output: "three found" },
      ],
    });
    expect(second.output_text).toBe("Tool said: three found");
  });
});
