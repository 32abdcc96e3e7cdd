import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eventually } from "@gateway/testing";
import { providerUsage } from "../support/provider-usage.ts";
import { startStack, type Stack } from "../support/stack.ts";
import { createOrg } from "../support/orgs.ts";
import type { ErrorBody, UsageBody } from "../support/api.ts";

let stack: Stack;
let anthropic: Anthropic;
const cost = (input: number, output: number) => Math.ceil((input * 150_000 + output * 600_000) / 1_000_000);

async function usageOf(requestId: string): Promise<UsageBody> {
  const r = await fetch(`${stack.baseUrl()}/usage/${requestId}`, { headers: { authorization: `Bearer ${stack.demo.secret}` } });
  return (await r.json()) as UsageBody;
}

beforeAll(async () => {
  stack = await startStack("messages");
  // The Anthropic SDK appends /v1/messages to its base URL.
  anthropic = new Anthropic({ baseURL: stack.dataPlanes[0]!.url, apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

describe("/v1/messages through the official Anthropic SDK, to an OpenAI-shaped model", () => {
  it("creates a message with the system prompt and multi-turn history, and bills it", async () => {
    const { data, response } = await anthropic.messages
      .create({
        model: "gw-chat-mini",
        max_tokens: 100,
        system: "You are terse.",
        messages: [
          { role: "user", content: "first question" },
          { role: "assistant", content: "first answer" },
          { role: "user", content: [{ type: "text", text: "second question here" }] },
        ],
      })
      .withResponse();
    expect(data.type).toBe("message");
    expect(data.role).toBe("assistant");
    expect(data.model).toBe("gw-chat-mini");
    expect(data.content).toEqual([{ type: "text", text: "Echo: second question here" }]);
    expect(data.stop_reason).toBe("end_turn");
    expect(data.usage.output_tokens).toBe(4);
    const sent = stack.fake.requests.at(-1)!.body as { messages: Array<{ role: string }> };
    expect(sent.messages.map((m) => m.role)).toEqual(["system", "user", "assistant", "user"]);
    expect(response.headers.get("x-gateway-provider")).toBe("fake");
    expect(response.headers.get("x-gateway-upstream-model")).toBe("fake-chat");
    expect(response.headers.get("x-gateway-retry-count")).toBe("0");
    const u = await usageOf(response.headers.get("x-gateway-trace-id")!);
    expect(u.route).toBe("messages");
    // The catalog's prices times what the provider (OpenAI-shaped, the request translated) reported.
    const p = providerUsage(stack.fake, "second question here");
    expect(u.cost_credits_minor).toBe(cost(p.input, p.output));
  });

  it("thinking (what Claude Code sends) maps to reasoning_effort on a reasoning model and is left out, said in a header, on one without", async () => {
    const history = [
      { role: "user" as const, content: "first" },
      {
        role: "assistant" as const,
        content: [
          { type: "thinking" as const, thinking: "earlier reasoning", signature: "sig" },
          { type: "text" as const, text: "earlier answer" },
        ],
      },
      { role: "user" as const, content: "think about this" },
    ];
    // gw-chat-mini: no reasoning price in the catalog, so not a reasoning model.
    const plain = await anthropic.messages.create({ model: "gw-chat-mini", max_tokens: 2048, thinking: { type: "enabled", budget_tokens: 1024 }, messages: history }).withResponse();
    expect(plain.response.status).toBe(200);
    expect(plain.response.headers.get("x-gateway-dropped-params")).toBe("thinking");
    const sentPlain = stack.fake.requests.at(-1)!.body as Record<string, unknown>;
    expect(sentPlain.reasoning_effort).toBeUndefined();
    expect(JSON.stringify(sentPlain)).not.toContain("earlier reasoning");
    expect(sentPlain.messages).toEqual([
      { role: "user", content: "first" },
      { role: "assistant", content: "earlier answer" },
      { role: "user", content: "think about this" },
    ]);
    // gw-chat-large prices reasoning tokens: a 20,000-token budget is high effort; nothing dropped.
    const reasoner = await anthropic.messages
      .create({ model: "gw-chat-large", max_tokens: 4096, thinking: { type: "enabled", budget_tokens: 20_000 }, messages: [{ role: "user", content: "hard one" }] })
      .withResponse();
    expect(reasoner.response.headers.get("x-gateway-dropped-params")).toBeNull();
    expect((stack.fake.requests.at(-1)!.body as { reasoning_effort?: string }).reasoning_effort).toBe("high");
  });

  it("refuses a field whose absence would change the answer (top_k) with a 400 naming it, and sends nothing upstream", async () => {
    const before = stack.fake.requests.length;
    const sampled = { model: "gw-chat-mini", max_tokens: 256, top_k: 5, messages: [{ role: "user", content: "sample" }] };
    const err = await anthropic.messages.create(sampled as never).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: "error", error: { param: "top_k" } });
    expect(stack.fake.requests.length).toBe(before);
  });

  it("a body no deployment can take is its 400 before any credit is held: an organization whose balance the hold would exceed gets the 400, not a 402", async () => {
    // 20 minor: far below either request's hold, so a hold taken before translating would answer 402 first.
    const poor = await createOrg(stack, { balanceMinor: 20, models: ["gw-chat-mini", "gw-claude"] });
    const client = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: poor.secret, maxRetries: 0 });
    const sampled = await eventually(
      async () => {
        const e = await client.messages.create({ model: "gw-chat-mini", max_tokens: 256, top_k: 5, messages: [{ role: "user", content: "sample" }] } as never).catch((x: unknown) => x);
        return (e as { status?: number }).status === 404 ? undefined : e;
      },
      5_000,
      "the models visible to the new org",
    );
    expect(sampled).toMatchObject({ status: 400, error: { error: { param: "top_k" } } });
    const beta = await client.messages
      .create({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: "hello" }] }, { headers: { "anthropic-beta": "context-1m-2025-08-07" } })
      .catch((e: unknown) => e);
    expect(beta).toMatchObject({ status: 400, error: { error: { param: "anthropic-beta" } } });
    // And the same bodies that can go somewhere meet the credit check: 402.
    const fine = await client.messages.create({ model: "gw-chat-mini", max_tokens: 256, messages: [{ role: "user", content: "sample" }] }).catch((e: unknown) => e);
    expect(fine).toMatchObject({ status: 402 });
  });

  it("refuses the 1M-context beta the catalog cannot price, with a 400 naming the header, and sends nothing", async () => {
    const before = stack.fake.requests.length;
    const err = await anthropic.messages
      .create({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: "hello" }] }, { headers: { "anthropic-beta": "interleaved-thinking-2025-05-14,context-1m-2025-08-07" } })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: "error", error: { param: "anthropic-beta" } });
    expect(stack.fake.requests.length).toBe(before);

    // A Claude model whose catalog prices the long context: the beta goes through, and a prompt past the threshold is priced as such.
    await stack.applyCatalog({
      models: [
        {
          id: "gw-claude-1m",
          routes: ["chat", "messages"],
          context_window: 1_000_000,
          max_output_tokens: 1_000,
          input_price_minor_per_mtok: 800_000,
          output_price_minor_per_mtok: 4_000_000,
          long_context_threshold_tokens: 200_000,
          long_context_input_price_minor_per_mtok: 1_600_000,
          long_context_output_price_minor_per_mtok: 6_000_000,
          anthropic_betas: ["interleaved-thinking-2025-05-14", "context-1m-*"],
          deployments: [{ provider: "fake-anthropic", upstream_model: "fake-claude", priority: 0 }],
        },
      ],
    });
    await stack.admin.EnableModels({ org: stack.demo.orgId, models: ["gw-claude-1m"] });
    const beta = "interleaved-thinking-2025-05-14,context-1m-2025-08-07";
    await eventually(
      () => anthropic.messages.create({ model: "gw-claude-1m", max_tokens: 20, messages: [{ role: "user", content: "hello" }] }, { headers: { "anthropic-beta": beta } }),
      15_000,
      "gw-claude-1m",
    );
    const sent = [...stack.fake.requests].reverse().find((r) => r.path === "/v1/messages")!;
    expect(sent.headers["anthropic-beta"]).toBe(beta);

    // Betas go out by the catalog's allowlist only: one it does not list is dropped, and the answer names it.
    const { response } = await anthropic.messages
      .create(
        { model: "gw-claude-1m", max_tokens: 20, messages: [{ role: "user", content: "hello" }] },
        { headers: { "anthropic-beta": "files-api-2025-04-14,interleaved-thinking-2025-05-14,code-execution-2025-08-25" } },
      )
      .withResponse();
    expect(response.headers.get("x-gateway-betas-dropped")).toBe("files-api-2025-04-14,code-execution-2025-08-25");
    const filtered = [...stack.fake.requests].reverse().find((r) => r.path === "/v1/messages")!;
    expect(filtered.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
    // The same for count_tokens, which the provider answers free.
    await anthropic.messages.countTokens({ model: "gw-claude-1m", messages: [{ role: "user", content: "hello" }] }, { headers: { "anthropic-beta": "mcp-client-2025-04-04" } });
    expect([...stack.fake.requests].reverse().find((r) => r.path === "/v1/messages/count_tokens")!.headers["anthropic-beta"]).toBeUndefined();
  });

  it("refuses documents the provider would fetch and bill unbounded (file ids, URLs); inline documents go through", async () => {
    const before = stack.fake.requests.length;
    for (const [source, param] of [
      [{ type: "file", file_id: "file_011CNha8iCJcU1wXNR6q4V8w" }, "messages[0].content[0].source"],
      [{ type: "url", url: "https://example.com/report.pdf" }, "messages[0].content[0].source"],
    ] as const) {
      const err = await anthropic.messages
        .create({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: [{ type: "document", source, title: "r" } as never, { type: "text", text: "summarise" }] }] })
        .catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
      expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { param } });
    }
    expect(stack.fake.requests.length).toBe(before);
    const ok = await anthropic.messages.create({
      model: "gw-claude",
      max_tokens: 100,
      messages: [
        {
          role: "user",
          content: [
            { type: "document", source: { type: "text", media_type: "text/plain", data: "quarterly numbers" } },
            { type: "text", text: "summarise" },
          ],
        },
      ],
    });
    expect(ok.type).toBe("message");
  });

  it("holds what web fetches can bring into the prompt (max_uses × max_content_tokens, sent when absent) and refuses mcp_servers", async () => {
    const body = { model: "gw-claude", max_tokens: 100, tools: [{ type: "web_fetch_20250910", name: "web_fetch" }], messages: [{ role: "user", content: "read example.com" }] };
    const dry = await fetch(`${stack.dataPlanes[0]!.url}/v1/messages`, {
      method: "POST",
      headers: { "x-api-key": stack.demo.secret, "content-type": "application/json", "anthropic-version": "2023-06-01", "x-gateway-dry-run": "true" },
      body: JSON.stringify(body),
    });
    const estimate = (await dry.json()) as { lines: Array<{ item: string; unit_price_minor: number; cost_minor: number }> };
    const inputPrice = estimate.lines.find((l) => l.item === "input_tokens")!.unit_price_minor;
    // 5 fetches of at most 20,000 tokens each, at the dearest price of a prompt token.
    expect(estimate.lines.find((l) => l.item === "server_tools")!.cost_minor).toBe(Math.ceil((5 * 20_000 * inputPrice) / 1_000_000));
    await anthropic.messages.create(body as Anthropic.MessageCreateParamsNonStreaming);
    const sent = stack.fake.requests.at(-1)!.body as { tools: Array<Record<string, unknown>> };
    expect(sent.tools[0]).toMatchObject({ type: "web_fetch_20250910", max_uses: 5, max_content_tokens: 20_000 });

    const err = await anthropic.messages
      .create({ model: "gw-claude", max_tokens: 100, mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "x" }], messages: [{ role: "user", content: "hi" }] } as never)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { param: "mcp_servers" } });
  });

  it("refuses a one-hour prompt cache (billed at twice the input price, above the hold) and takes the default one", async () => {
    const before = stack.fake.requests.length;
    const err = await anthropic.messages
      .create({
        model: "gw-claude",
        max_tokens: 50,
        system: [{ type: "text", text: "A long policy", cache_control: { type: "ephemeral", ttl: "1h" } }],
        messages: [{ role: "user", content: "hello" }],
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { param: "system[0].cache_control.ttl" } });
    expect(stack.fake.requests.length).toBe(before);
    const ok = await anthropic.messages.create({
      model: "gw-claude",
      max_tokens: 50,
      system: [{ type: "text", text: "A long policy", cache_control: { type: "ephemeral" } }],
      messages: [{ role: "user", content: [{ type: "text", text: "hello", cache_control: { type: "ephemeral", ttl: "5m" } }] }],
    });
    expect(ok.type).toBe("message");
  });

  it("streams every event in the native shape, with usage in the final message", async () => {
    const stream = anthropic.messages.stream({ model: "gw-chat-mini", max_tokens: 100, messages: [{ role: "user", content: "stream in anthropic shape" }] });
    const types: string[] = [];
    stream.on("streamEvent", (e) => types.push(e.type));
    const final = await stream.finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "Echo: stream in anthropic shape" }]);
    expect(final.stop_reason).toBe("end_turn");
    expect(final.usage.input_tokens).toBe(4);
    expect(final.usage.output_tokens).toBe(5);
    expect(types[0]).toBe("message_start");
    expect(types).toContain("content_block_start");
    expect(types).toContain("content_block_delta");
    expect(types).toContain("content_block_stop");
    expect(types.at(-2)).toBe("message_delta");
    expect(types.at(-1)).toBe("message_stop");
  });

  it("round-trips a tool call and its result", async () => {
    const tools = [{ name: "lookup", description: "Looks things up", input_schema: { type: "object" as const, properties: { text: { type: "string" } } } }];
    const first = await anthropic.messages.create({ model: "gw-chat-mini", max_tokens: 100, tools, messages: [{ role: "user", content: "find the answer" }] });
    expect(first.stop_reason).toBe("tool_use");
    const call = first.content.find((b) => b.type === "tool_use")!;
    expect(call).toMatchObject({ type: "tool_use", name: "lookup", input: { text: "find the answer" } });
    const second = await anthropic.messages.create({
      model: "gw-chat-mini",
      max_tokens: 100,
      tools,
      messages: [
        { role: "user", content: "find the answer" },
        { role: "assistant", content: first.content },
        { role: "user", content: [{ type: "tool_result", tool_use_id: (call as { id: string }).id, content: "forty-two" }] },
      ],
    });
    expect(second.content).toEqual([{ type: "text", text: "Tool said: forty-two" }]);

    const streamed = await anthropic.messages.stream({ model: "gw-chat-mini", max_tokens: 100, tools, messages: [{ role: "user", content: "stream a tool call" }] }).finalMessage();
    expect(streamed.stop_reason).toBe("tool_use");
    expect(streamed.content[0]).toMatchObject({ type: "tool_use", name: "lookup", input: { text: "stream a tool call" } });
  });

  it("answers errors in the shape the Anthropic SDK reads, and refuses what it cannot translate", async () => {
    const missing = await anthropic.messages.create({ model: "nope", max_tokens: 10, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missing as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: "error", error: { type: "not_found_error", code: "model_not_found" } });

    // top_k is no longer in the SDK's types; callers still send it and the gateway must name it.
    const topK = await anthropic.messages
      .create({ model: "gw-chat-mini", max_tokens: 10, top_k: 5, messages: [{ role: "user", content: "x" }] } as Anthropic.MessageCreateParamsNonStreaming)
      .catch((e: unknown) => e);
    expect(topK).toBeInstanceOf(Anthropic.BadRequestError);
    expect((topK as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ error: { param: "top_k" } });

    const noMax = await fetch(`${stack.baseUrl()}/messages`, {
      method: "POST",
      headers: { "x-api-key": stack.demo.secret, "content-type": "application/json", "anthropic-version": "2023-06-01" },
      body: JSON.stringify({ model: "gw-chat-mini", messages: [{ role: "user", content: "x" }] }),
    });
    expect(noMax.status).toBe(400);
    expect(((await noMax.json()) as ErrorBody).error.param).toBe("max_tokens");
  });

  it("the same model answers the OpenAI shape too", async () => {
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const tools = [{ type: "function" as const, function: { name: "lookup", parameters: { type: "object", properties: { text: { type: "string" } } } } }];
    const first = await openai.chat.completions.create({ model: "gw-chat-mini", tools, messages: [{ role: "user", content: "use the tool" }] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    const second = await openai.chat.completions.create({
      model: "gw-chat-mini",
      tools,
      messages: [{ role: "user", content: "use the tool" }, first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "done" }],
    });
    expect(second.choices[0]!.message.content).toBe("Tool said: done");
  });
});

describe("an Anthropic-provider model, through both SDKs", () => {
  const claudeCost = (i: number, o: number) => Math.ceil((i * 800_000 + o * 4_000_000) / 1_000_000);

  it("Anthropic SDK: create and stream, billed at the model's prices", async () => {
    const { data, response } = await anthropic.messages.create({ model: "gw-claude", max_tokens: 50, system: "Be brief.", messages: [{ role: "user", content: "hello claude" }] }).withResponse();
    expect(data.content).toEqual([{ type: "text", text: "Echo: hello claude" }]);
    expect(response.headers.get("x-gateway-provider")).toBe("fake-anthropic");
    const sent = stack.fake.requests.at(-1)!;
    expect(sent.path).toBe("/v1/messages");
    expect(sent.headers["x-api-key"]).toBe("fake-upstream-local-key");
    // The client's anthropic-version goes through (the gateway's default only when it sends none).
    expect(sent.headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(sent.body).toMatchObject({ model: "fake-claude", system: "Be brief.", max_tokens: 50 });
    const u = await usageOf(response.headers.get("x-gateway-trace-id")!);
    const p = providerUsage(stack.fake, "hello claude");
    expect(u.cost_credits_minor).toBe(claudeCost(p.input, p.output));

    const final = await anthropic.messages.stream({ model: "gw-claude", max_tokens: 50, messages: [{ role: "user", content: "stream from claude" }] }).finalMessage();
    expect(final.content).toEqual([{ type: "text", text: "Echo: stream from claude" }]);
    expect(final.usage).toMatchObject({ input_tokens: 3, output_tokens: 4 });
  });

  it("OpenAI SDK: chat, stream with usage, and a tool round trip, translated to the Messages API", async () => {
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const r = await openai.chat.completions.create({
      model: "gw-claude",
      messages: [
        { role: "system", content: "sys" },
        { role: "user", content: "hi from openai" },
      ],
    });
    expect(r.choices[0]!.message.content).toBe("Echo: hi from openai");
    expect(r.choices[0]!.finish_reason).toBe("stop");
    expect(r.usage).toMatchObject({ prompt_tokens: 4, completion_tokens: 4 });

    const stream = await openai.chat.completions.create({ model: "gw-claude", stream: true, stream_options: { include_usage: true }, messages: [{ role: "user", content: "stream it please" }] });
    let text = "";
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const c of stream) {
      text += c.choices[0]?.delta?.content ?? "";
      if (c.usage) usage = c.usage;
    }
    expect(text).toBe("Echo: stream it please");
    expect(usage).toMatchObject({ prompt_tokens: 3, completion_tokens: 4 });

    const tools = [{ type: "function" as const, function: { name: "lookup", parameters: { type: "object", properties: { text: { type: "string" } } } } }];
    const first = await openai.chat.completions.create({ model: "gw-claude", tools, messages: [{ role: "user", content: "call it" }] });
    const call = first.choices[0]!.message.tool_calls![0]!;
    expect(first.choices[0]!.finish_reason).toBe("tool_calls");
    expect(call.type).toBe("function");
    expect(JSON.parse((call as OpenAI.Chat.ChatCompletionMessageFunctionToolCall).function.arguments)).toEqual({ text: "call it" });
    const second = await openai.chat.completions.create({
      model: "gw-claude",
      tools,
      messages: [{ role: "user", content: "call it" }, first.choices[0]!.message, { role: "tool", tool_call_id: call.id, content: "result 7" }],
    });
    expect(second.choices[0]!.message.content).toBe("Tool said: result 7");

    const unsupported = await openai.chat.completions.create({ model: "gw-claude", logprobs: true, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect((unsupported as InstanceType<typeof OpenAI.APIError>).param).toBe("logprobs");
  });
});

describe("Anthropic provider faults", () => {
  it("a stream whose provider reports no usage is billed from counted tokens", async () => {
    const stream = anthropic.messages.stream({ model: "gw-claude", max_tokens: 50, messages: [{ role: "user", content: "no usage here [[fake:nousage]]" }] });
    let id: string | null = null;
    stream.on("connect", () => undefined);
    const final = await stream.finalMessage();
    expect(final.content[0]).toMatchObject({ type: "text", text: "Echo: no usage here" });
    id = (await stream.withResponse()).response.headers.get("x-gateway-trace-id");
    const u = await usageOf(id!);
    expect((u as { usage: { estimated?: boolean } }).usage.estimated).toBe(true);
    expect(u.cost_credits_minor).toBeGreaterThan(0);
  });
});

describe("/v1/messages native to an Anthropic deployment", () => {
  const thinking = { type: "enabled" as const, budget_tokens: 1024 };

  it("returns thinking blocks with their signature and the provider's message id; top_k, thinking and anthropic-beta reach the provider", async () => {
    const { data, response } = await anthropic.messages
      .create(
        {
          model: "gw-claude",
          max_tokens: 2048,
          thinking,
          top_k: 5,
          metadata: { user_id: "u-1" },
          messages: [{ role: "user", content: "why is the sky blue" }],
        } as Anthropic.MessageCreateParamsNonStreaming,
        { headers: { "anthropic-beta": "interleaved-thinking-2025-05-14", "anthropic-version": "2023-06-01" } },
      )
      .withResponse();
    expect(data.id).toMatch(/^msg_fake/);
    expect(data.model).toBe("gw-claude");
    expect(data.content).toEqual([
      { type: "thinking", thinking: "Thinking about: why is the sky blue", signature: `sig_${Buffer.from("Thinking about: why is the sky blue").toString("base64")}` },
      { type: "text", text: "Echo: why is the sky blue" },
    ]);
    expect(response.headers.get("x-gateway-provider")).toBe("fake-anthropic");
    const sent = stack.fake.requests.at(-1)!;
    expect(sent.body).toEqual({ model: "fake-claude", max_tokens: 2048, thinking, top_k: 5, metadata: { user_id: "u-1" }, messages: [{ role: "user", content: "why is the sky blue" }] });
    expect(sent.headers["anthropic-beta"]).toBe("interleaved-thinking-2025-05-14");
    expect(sent.headers["anthropic-version"]).toBe("2023-06-01");
    const u = await usageOf(response.headers.get("x-gateway-trace-id")!);
    expect(u.usage).toMatchObject({ input_tokens: data.usage.input_tokens, output_tokens: data.usage.output_tokens, estimated: false });
  });

  it("bills web searches at the model's price per search beside the tokens, holds for every search max_uses allows, and refuses code execution", async () => {
    const search = { type: "web_search_20250305", name: "web_search" };
    const { data, response } = await anthropic.messages
      .create({ model: "gw-claude", max_tokens: 100, tools: [search] as never, messages: [{ role: "user", content: "search the web" }] })
      .withResponse();
    // No max_uses: the gateway caps the searches (5) so the hold can cover them.
    expect((stack.fake.requests.at(-1)!.body as { tools?: unknown }).tools).toEqual([{ ...search, max_uses: 5 }]);
    expect((data.usage as unknown as { server_tool_use?: unknown }).server_tool_use).toEqual({ web_search_requests: 2 });
    const u = await usageOf(response.headers.get("x-gateway-trace-id")!);
    const searches = u.line_items.find((i) => (i as { item: string }).item === "web_search_requests");
    expect(searches).toEqual({ item: "web_search_requests", quantity: 2, unit_price_minor: 10_000, per: "search" });
    const p = providerUsage(stack.fake, "search the web");
    const tokens = Math.ceil((p.input * 800_000 + p.output * 4_000_000) / 1_000_000);
    expect(u.cost_credits_minor).toBe(tokens + 2 * 10_000);
    // Streamed, the searches come in message_delta's usage and are billed the same way.
    const streamed = anthropic.messages.stream({ model: "gw-claude", max_tokens: 100, tools: [search] as never, messages: [{ role: "user", content: "search while streaming" }] });
    const final = await streamed.finalMessage();
    expect((final.usage as unknown as { server_tool_use?: unknown }).server_tool_use).toEqual({ web_search_requests: 2 });
    const su = await usageOf((await streamed.withResponse()).response.headers.get("x-gateway-trace-id")!);
    expect(su.line_items).toContainEqual({ item: "web_search_requests", quantity: 2, unit_price_minor: 10_000, per: "search" });

    // The hold covers max_uses searches: 5 of them do not fit in 30,000 minor, one does.
    const small = await createOrg(stack, { balanceMinor: 30_000, models: ["gw-claude"] });
    const poor = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: small.secret, maxRetries: 0 });
    await expect(
      poor.messages.create({ model: "gw-claude", max_tokens: 100, tools: [{ ...search, max_uses: 5 }] as never, messages: [{ role: "user", content: "search a lot" }] }),
    ).rejects.toMatchObject({ status: 402 });
    const one = await poor.messages.create({ model: "gw-claude", max_tokens: 100, tools: [{ ...search, max_uses: 1 }] as never, messages: [{ role: "user", content: "search once" }] });
    expect((one.usage as unknown as { server_tool_use?: unknown }).server_tool_use).toEqual({ web_search_requests: 1 });

    // A model the catalog prices no search for refuses the tool, before anything is sent or held.
    await stack.applyCatalog({
      models: [
        {
          id: "gw-claude-nosearch",
          routes: ["chat", "messages"],
          context_window: 200_000,
          max_output_tokens: 1_000,
          input_price_minor_per_mtok: 800_000,
          output_price_minor_per_mtok: 4_000_000,
          deployments: [{ provider: "fake-anthropic", upstream_model: "fake-claude", priority: 0 }],
        },
      ],
    });
    await stack.admin.EnableModels({ org: stack.demo.orgId, models: ["gw-claude-nosearch"] });
    await eventually(() => anthropic.messages.create({ model: "gw-claude-nosearch", max_tokens: 20, messages: [{ role: "user", content: "visible?" }] }), 15_000, "gw-claude-nosearch visible");
    const sent = stack.fake.requests.length;
    const unpriced = await anthropic.messages.create({ model: "gw-claude-nosearch", max_tokens: 100, tools: [search] as never, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(unpriced).toBeInstanceOf(Anthropic.BadRequestError);
    expect(JSON.stringify((unpriced as InstanceType<typeof Anthropic.APIError>).error)).toContain("Web search is not offered on 'gw-claude-nosearch'");
    for (const tools of [[{ type: "code_execution_20250825", name: "code_execution" }], [{ ...search, max_uses: 0 }]]) {
      const err = await anthropic.messages.create({ model: "gw-claude", max_tokens: 100, tools: tools as never, messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    }
    expect(stack.fake.requests.length).toBe(sent);
  });

  it("streams thinking_delta and signature_delta events and the final message as the provider sent them", async () => {
    const stream = anthropic.messages.stream({ model: "gw-claude", max_tokens: 2048, thinking, messages: [{ role: "user", content: "think while streaming" }] });
    const deltas: string[] = [];
    const types: string[] = [];
    let started: Anthropic.Message | undefined;
    stream.on("streamEvent", (e) => {
      types.push(e.type);
      if (e.type === "message_start") started = e.message;
      if (e.type === "content_block_delta") deltas.push(e.delta.type);
    });
    const final = await stream.finalMessage();
    expect(deltas).toEqual(["thinking_delta", "thinking_delta", "signature_delta", "text_delta", "text_delta", "text_delta", "text_delta"]);
    expect(started).toMatchObject({ model: "gw-claude", usage: { input_tokens: 3 } });
    expect(final.id).toMatch(/^msg_fake/);
    expect(final.content).toEqual([
      { type: "thinking", thinking: "Thinking about: think while streaming", signature: `sig_${Buffer.from("Thinking about: think while streaming").toString("base64")}` },
      { type: "text", text: "Echo: think while streaming" },
    ]);
    expect(final.usage).toMatchObject({ input_tokens: 3, output_tokens: 4 + 5 });
    expect(types[0]).toBe("message_start");
    expect(types.at(-1)).toBe("message_stop");
    const id = (await stream.withResponse()).response.headers.get("x-gateway-trace-id")!;
    expect((await usageOf(id)).usage).toMatchObject({ input_tokens: 3, output_tokens: 9, estimated: false });
  });

  it("passes cache_control through and reports cache writes then reads, in the answer and the usage record", async () => {
    const system = [{ type: "text" as const, text: "A long shared policy of exactly ten words for caching here.", cache_control: { type: "ephemeral" as const } }];
    const ask = () => anthropic.messages.create({ model: "gw-claude", max_tokens: 50, system, messages: [{ role: "user", content: "cached question" }] }).withResponse();
    const first = await ask();
    expect(stack.fake.requests.at(-1)!.body).toMatchObject({ system });
    expect(first.data.usage).toMatchObject({ input_tokens: 2, cache_creation_input_tokens: 11, cache_read_input_tokens: 0 });
    const second = await ask();
    expect(second.data.usage).toMatchObject({ input_tokens: 2, cache_creation_input_tokens: 0, cache_read_input_tokens: 11 });
    const u1 = await usageOf(first.response.headers.get("x-gateway-trace-id")!);
    const u2 = await usageOf(second.response.headers.get("x-gateway-trace-id")!);
    // input_tokens in the record counts every prompt token; cached_input_tokens the part read from the cache.
    expect(u1.usage).toMatchObject({ input_tokens: 13, cached_input_tokens: 0, cache_creation_input_tokens: 11 });
    expect(u2.usage).toMatchObject({ input_tokens: 13, cached_input_tokens: 11, cache_creation_input_tokens: 0 });
    // Each part at its own price (gw-claude: input 0.8, cache write 1.0, cache read 0.08, output 4 credits per 1M tokens).
    expect(u1.line_items).toContainEqual({ item: "cache_creation_input_tokens", quantity: 11, unit_price_minor: 1_000_000, per: "1M tokens" });
    expect(u2.line_items).toContainEqual({ item: "cached_input_tokens", quantity: 11, unit_price_minor: 80_000, per: "1M tokens" });
    expect(u1.cost_credits_minor).toBe(Math.ceil((2 * 800_000 + 11 * 1_000_000 + 3 * 4_000_000) / 1_000_000));
    expect(u2.cost_credits_minor).toBe(Math.ceil((2 * 800_000 + 11 * 80_000 + 3 * 4_000_000) / 1_000_000));

    const streamed = await anthropic.messages.stream({ model: "gw-claude", max_tokens: 50, system, messages: [{ role: "user", content: "cached question" }] }).finalMessage();
    expect(streamed.usage).toMatchObject({ input_tokens: 2, cache_read_input_tokens: 11, cache_creation_input_tokens: 0 });
  });

  it("counts tokens with the provider for an Anthropic deployment, by estimate otherwise; errors in the Anthropic shape", async () => {
    const counted = await anthropic.messages.countTokens({ model: "gw-claude", system: "Be brief.", messages: [{ role: "user", content: "count these four words" }] });
    expect(counted).toEqual({ input_tokens: 6 });
    const sent = stack.fake.requests.at(-1)!;
    expect(sent.path).toBe("/v1/messages/count_tokens");
    expect(sent.body).toMatchObject({ model: "fake-claude" });

    const estimated = await anthropic.messages.countTokens({ model: "gw-chat-mini", messages: [{ role: "user", content: "count these four words" }] });
    // No tokenizer for this family: one token per 3 UTF-8 bytes (22 → 8) plus 4 for the part.
    expect(estimated.input_tokens).toBe(12);

    const missing = await anthropic.messages.countTokens({ model: "nope", messages: [{ role: "user", content: "x" }] }).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(Anthropic.NotFoundError);
    expect((missing as InstanceType<typeof Anthropic.APIError>).error).toMatchObject({ type: "error", error: { type: "not_found_error", code: "model_not_found" } });
    const unauth = await new Anthropic({ baseURL: stack.dataPlanes[0]!.url, apiKey: "sk-gateway-not-a-real-key-0000000000000000", maxRetries: 0 }).messages
      .countTokens({ model: "gw-claude", messages: [{ role: "user", content: "x" }] })
      .catch((e: unknown) => e);
    expect(unauth).toBeInstanceOf(Anthropic.AuthenticationError);
  });

  it("lists models in the Anthropic shape through the Anthropic SDK, paging with after_id", async () => {
    const page = await anthropic.models.list();
    expect(page.data.every((m) => m.type === "model" && typeof m.display_name === "string" && typeof m.created_at === "string")).toBe(true);
    const all: string[] = [];
    for await (const m of anthropic.models.list({ limit: 2 })) all.push(m.id);
    const openai = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
    const ids = (await openai.models.list()).data.map((m) => m.id);
    expect(all).toEqual(ids);
    expect(all).toContain("gw-claude");
    expect(page.data.map((m) => m.id)).toEqual(ids.slice(0, 20));
    // The catalog's limits, so an agent can size its request for a model id it does not know.
    expect(page.data.find((m) => m.id === "gw-claude")).toMatchObject({ max_input_tokens: 200_000, max_tokens: 64_000, context_window: 200_000, max_output_tokens: 64_000 });
  });
});

describe("/v1/messages native stream faults", () => {
  it("a passthrough stream the provider cuts ends with an error event and is billed for what was delivered", async () => {
    const stream = anthropic.messages.stream({ model: "gw-claude", max_tokens: 100, messages: [{ role: "user", content: "one two three four five six [[fake:cut=3]]" }] });
    const got: string[] = [];
    stream.on("text", (t) => got.push(t));
    const err = await stream.finalMessage().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expect(got.join("")).toBe("Echo: one two");
    const id = (await stream.withResponse()).response.headers.get("x-gateway-trace-id")!;
    const u = await usageOf(id);
    // message_start reported the prompt, no message_delta came: the output is counted.
    expect(u.usage.estimated).toBe(true);
    expect(u.usage.output_tokens).toBeGreaterThan(0);
  });
});

describe("/v1/messages over a model with Anthropic and OpenAI-shaped deployments", () => {
  it("falls back from a failing Anthropic deployment to a translated one; a body with no chat equivalent never goes to the translated one", async () => {
    await stack.applyCatalog({
      models: [
        {
          id: "gw-claude-or-chat",
          routes: ["chat", "messages"],
          context_window: 8000,
          max_output_tokens: 2048,
          input_price_minor_per_mtok: 1,
          output_price_minor_per_mtok: 1,
          deployments: [
            { provider: "fake-anthropic", upstream_model: "fake-claude+status=529", priority: 0 },
            { provider: "fake", upstream_model: "fake-chat", priority: 1 },
          ],
        },
      ],
    });
    await stack.admin.EnableModels({ org: stack.demo.orgId, models: ["gw-claude-or-chat"] });
    // Visible once the data-plane's cached key has been evicted by the change event.
    const { data, response } = await eventually(
      () => anthropic.messages.create({ model: "gw-claude-or-chat", max_tokens: 50, messages: [{ role: "user", content: "fall back please" }] }).withResponse(),
      5_000,
      "gw-claude-or-chat visible",
    );
    expect(data.content).toEqual([{ type: "text", text: "Echo: fall back please" }]);
    expect(data.model).toBe("gw-claude-or-chat");
    expect(response.headers.get("x-gateway-provider")).toBe("fake");
    expect(response.headers.get("x-gateway-attempted-fallbacks")).toBe("fake-anthropic");
    const tried = stack.fake.requests.filter((q) => q.path === "/v1/messages" && (q.body as { model?: string }).model === "fake-claude+status=529");
    expect(tried.length).toBeGreaterThan(0);

    // A body only the Anthropic deployment can take is never translated for the other one: the
    // caller gets the Anthropic deployment's failure (retryable), not a 400 about a field it may send.
    const chatCallsBefore = stack.fake.requests.filter((q) => q.path === "/v1/chat/completions").length;
    const onlyClaude = { model: "gw-claude-or-chat", max_tokens: 2048, top_k: 5, messages: [{ role: "user", content: "sample" }] };
    const refused = await anthropic.messages.create(onlyClaude as never).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.APIError);
    expect((refused as InstanceType<typeof Anthropic.APIError>).status).toBeGreaterThanOrEqual(500);
    expect((refused as InstanceType<typeof Anthropic.APIError>).headers?.get("x-gateway-attempted-fallbacks")).toBe("fake-anthropic");
    expect(stack.fake.requests.filter((q) => q.path === "/v1/chat/completions").length).toBe(chatCallsBefore);
  });
});
