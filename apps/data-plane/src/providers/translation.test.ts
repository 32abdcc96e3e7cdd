import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { costMinor, tokenLineItems } from "@gateway/pricing";
import { anthropicChat, openAIToAnthropic } from "./anthropic/chat.js";
import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { SseParser } from "./sse.js";
import type { UpstreamTarget } from "./types.js";
import { anthropicToOpenAI } from "../translate/anthropic-to-openai.js";
import { AnthropicStreamWriter, completionToMessage } from "../translate/openai-to-anthropic.js";

/** Recorded wire fixtures, in the shapes the providers' API references document. */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "fixtures", name), "utf8");
const events = (name: string) => new SseParser().push(new TextEncoder().encode(fixture(name)));
const openai = openAICompatibleChat();

describe("OpenAI wire fixtures", () => {
  it("takes usage from a final chunk that still has choices, cached tokens included", () => {
    const parse = openai.streamParser("gw-4o", "gpt-4o-2024-08-06");
    const parsed = events("openai-chat-stream-usage-in-final-choice.sse").map((e) => parse(e.data));
    expect(parsed.map((p) => p.text).join("")).toBe("Hello there");
    expect(parsed.at(-1)!.done).toBe(true);
    const withUsage = parsed.filter((p) => p.usage);
    expect(withUsage).toHaveLength(1);
    expect(withUsage[0]!.usage).toEqual({ input_tokens: 1117, output_tokens: 2, cached_input_tokens: 1024, reasoning_tokens: 0, estimated: false, service_tier: "default" });
    expect(withUsage[0]!.usageOnly).toBe(false); // it carries the finish reason too: forwarded to every client
    expect(parsed[1]!.forward).toContain('"model":"gw-4o"');
  });

  it("reads cached and reasoning tokens as parts of prompt_tokens and completion_tokens (a reasoning model's answer)", () => {
    const parsed = openai.parseChatResponse(JSON.parse(fixture("openai-chat-reasoning-cached.json")), "gw-o4");
    expect(parsed.usage).toEqual({ input_tokens: 2006, output_tokens: 1200, cached_input_tokens: 1920, reasoning_tokens: 1024, estimated: false, service_tier: "default" });
    // Each token in one line item: 86 uncached + 1920 cached = 2006; 176 visible + 1024 reasoning = 1200.
    const prices = { input_price_minor_per_mtok: 1_100_000, cached_input_price_minor_per_mtok: 275_000, output_price_minor_per_mtok: 4_400_000, reasoning_price_minor_per_mtok: 4_400_000 };
    expect(tokenLineItems(parsed.usage!, prices).map((i) => [i.item, i.quantity, i.unit_price_minor])).toEqual([
      ["input_tokens", 86, 1_100_000],
      ["cached_input_tokens", 1920, 275_000],
      ["output_tokens", 176, 4_400_000],
      ["reasoning_tokens", 1024, 4_400_000],
    ]);
    // 86 × 1.1 + 1920 × 0.275 + 1200 × 4.4 = 94.6 + 528 + 5280 = 5902.6 → 5903
    expect(costMinor(parsed.usage!, prices)).toBe(5903);
    // An Anthropic-shaped client sees the uncached prompt as input_tokens, the reads apart.
    expect(completionToMessage(parsed.body, "gw-o4", parsed.usage!).usage).toMatchObject({ input_tokens: 86, cache_read_input_tokens: 1920, output_tokens: 1200 });
  });

  it("takes cached and reasoning tokens from the usage-only chunk that ends a stream", () => {
    const parse = openai.streamParser("gw-o4", "o4-mini-2025-04-16");
    const parsed = events("openai-chat-stream-reasoning-cached.sse").map((e) => parse(e.data));
    expect(parsed.map((p) => p.text).join("")).toBe("Forty-two.");
    const withUsage = parsed.filter((p) => p.usage);
    expect(withUsage).toHaveLength(1);
    expect(withUsage[0]!.usageOnly).toBe(true);
    expect(withUsage[0]!.usage).toEqual({ input_tokens: 1290, output_tokens: 452, cached_input_tokens: 1152, reasoning_tokens: 448, estimated: false, service_tier: "default" });
  });

  it("translates a tool call answer to the Anthropic shape", () => {
    const parsed = openai.parseChatResponse(JSON.parse(fixture("openai-chat-tool-call.json")), "gw-mini");
    const msg = completionToMessage(parsed.body, "gw-mini", parsed.usage!);
    expect(msg).toMatchObject({
      type: "message",
      model: "gw-mini",
      stop_reason: "tool_use",
      content: [{ type: "tool_use", id: "call_abc123", name: "get_current_weather", input: { location: "Boston, MA" } }],
      usage: { input_tokens: 82, output_tokens: 17 },
    });
  });
});

describe("Anthropic wire fixtures", () => {
  it("parses a message with text, a tool call and cache usage into a chat completion", () => {
    const parsed = anthropicChat.parseChatResponse(JSON.parse(fixture("anthropic-message-tool-use.json")), "gw-sonnet");
    const choice = (parsed.body.choices as Array<{ message: { content: string; tool_calls: Array<{ function: { name: string; arguments: string } }> }; finish_reason: string }>)[0]!;
    expect(choice.message.content).toBe("I'll check the weather.");
    expect(choice.finish_reason).toBe("tool_calls");
    expect(JSON.parse(choice.message.tool_calls[0]!.function.arguments)).toEqual({ location: "San Francisco, CA", unit: "celsius" });
    // Cache reads and writes are prompt tokens too; reads are reported as cached.
    expect(parsed.usage).toEqual({ input_tokens: 472 + 100 + 2048, output_tokens: 89, cached_input_tokens: 2048, cache_creation_input_tokens: 100, estimated: false, service_tier: "standard" });
  });

  it("keeps the cache writes a stream reports only in message_start, and prices each part once", () => {
    const parse = anthropicChat.streamParser("gw-sonnet", "claude-sonnet-4-5-20250929");
    const parsed = events("anthropic-stream-cache-write.sse").map((e) => parse(e.data));
    const usage = parsed.find((p) => p.usage)!.usage!;
    expect(usage).toEqual({ input_tokens: 21 + 188086, output_tokens: 393, cached_input_tokens: 0, cache_creation_input_tokens: 188086, estimated: false, service_tier: "standard" });
    // A chat client sees every prompt token in prompt_tokens, as OpenAI counts them.
    expect(JSON.parse(parsed.find((p) => p.usageForward)!.usageForward!).usage).toMatchObject({ prompt_tokens: 188107, completion_tokens: 393 });
    const prices = { input_price_minor_per_mtok: 3_000_000, cache_write_price_minor_per_mtok: 3_750_000, cached_input_price_minor_per_mtok: 300_000, output_price_minor_per_mtok: 15_000_000 };
    expect(tokenLineItems(usage, prices).map((i) => [i.item, i.quantity])).toEqual([
      ["input_tokens", 21],
      ["cache_creation_input_tokens", 188086],
      ["output_tokens", 393],
    ]);
    // 21 × 3 + 188086 × 3.75 + 393 × 15 = 63 + 705322.5 + 5895 = 711280.5 → 711281
    expect(costMinor(usage, prices)).toBe(711_281);
  });

  it("translates a tool-use stream into OpenAI chunks, every block and the usage", () => {
    const parse = anthropicChat.streamParser("gw-sonnet", "claude-sonnet-4-5-20250929");
    const parsed = events("anthropic-stream-tool-use.sse").map((e) => parse(e.data));
    const args = parsed
      .flatMap((p) => (p.chunk?.choices as Array<{ delta: { tool_calls?: Array<{ function?: { arguments?: string } }> } }>) ?? [])
      .flatMap((c) => c.delta.tool_calls ?? [])
      .map((t) => t.function?.arguments ?? "")
      .join("");
    expect(JSON.parse(args)).toEqual({ location: "San Francisco, CA" });
    // What the model generated, tool arguments included, for counting when usage is missing.
    expect(parsed.map((p) => p.text).join("")).toBe(`Okay, let's check the weather.${args}`);
    const usage = parsed.find((p) => p.usage)!;
    expect(usage.usage).toEqual({ input_tokens: 472, output_tokens: 89, cached_input_tokens: 0, cache_creation_input_tokens: 0, estimated: false });
    expect(usage.forward).toContain('"finish_reason":"tool_calls"');
    expect(parsed.at(-1)!.done).toBe(true);
  });

  it("round-trips: the Anthropic stream written back for a Messages client keeps every block opened and closed", () => {
    const parse = anthropicChat.streamParser("gw-sonnet", "claude-sonnet-4-5-20250929", undefined, false);
    const writer = new AnthropicStreamWriter("gw-sonnet");
    let out = "";
    let usage;
    for (const e of events("anthropic-stream-tool-use.sse")) {
      const p = parse(e.data);
      if (p.usage) usage = p.usage;
      if (p.chunk) out += writer.chunk(p.chunk as never);
    }
    out += writer.end(usage!);
    const types = new SseParser().push(new TextEncoder().encode(out)).map((e) => e.event);
    expect(types.filter((t) => t === "content_block_start")).toHaveLength(2);
    expect(types.filter((t) => t === "content_block_stop")).toHaveLength(2);
    expect(types.slice(-2)).toEqual(["message_delta", "message_stop"]);
  });
});

describe("credentials", () => {
  const target = (auth_header: string): UpstreamTarget => ({
    provider: { code: "p", kind: "openai-compatible", base_url: "https://x/v1", credential_ref: "K", auth_header, max_connections: 0, http2: false },
    deployment: { provider: "p", upstream_model: "u", priority: 0, weight: 1 },
    apiKey: "secret-1",
  });
  it("sends the credential as a bearer token, or in the provider's own header", () => {
    expect(openai.buildChatRequest({ model: "m", messages: [] }, target("")).headers.authorization).toBe("Bearer secret-1");
    const azure = openai.buildChatRequest({ model: "m", messages: [] }, target("api-key")).headers;
    expect(azure["api-key"]).toBe("secret-1");
    expect(azure.authorization).toBeUndefined();
  });
});

describe("request translation", () => {
  it("Anthropic request → OpenAI: system, images, tool use and tool results", () => {
    const out = anthropicToOpenAI({
      model: "m",
      max_tokens: 10,
      system: [{ type: "text", text: "S" }],
      stop_sequences: ["END"],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "look" },
            { type: "image", source: { type: "base64", media_type: "image/png", data: "AAA" } },
          ],
        },
        { role: "assistant", content: [{ type: "tool_use", id: "t1", name: "f", input: { a: 1 } }] },
        { role: "user", content: [{ type: "tool_result", tool_use_id: "t1", content: "ok" }] },
      ],
      tools: [{ name: "f", input_schema: { type: "object" } }],
      tool_choice: { type: "any" },
    });
    expect(out.messages).toEqual([
      { role: "system", content: "S" },
      {
        role: "user",
        content: [
          { type: "text", text: "look" },
          { type: "image_url", image_url: { url: "data:image/png;base64,AAA" } },
        ],
      },
      { role: "assistant", content: null, tool_calls: [{ id: "t1", type: "function", function: { name: "f", arguments: '{"a":1}' } }] },
      { role: "tool", tool_call_id: "t1", content: "ok" },
    ]);
    expect(out).toMatchObject({ stop: ["END"], tool_choice: "required", tools: [{ type: "function", function: { name: "f", parameters: { type: "object" } } }] });
  });

  it("OpenAI request → Anthropic: images in content become image blocks", () => {
    const out = openAIToAnthropic(
      {
        model: "m",
        messages: [
          {
            role: "user",
            content: [
              { type: "text", text: "what is this" },
              { type: "image_url", image_url: { url: "data:image/jpeg;base64,/9j/" } },
              { type: "image_url", image_url: { url: "https://example.com/a.png" } },
            ],
          },
        ],
      },
      "claude-x",
    );
    expect((out.messages as Array<{ content: unknown[] }>)[0]!.content).toEqual([
      { type: "text", text: "what is this" },
      { type: "image", source: { type: "base64", media_type: "image/jpeg", data: "/9j/" } },
      { type: "image", source: { type: "url", url: "https://example.com/a.png" } },
    ]);
  });

  it("OpenAI request → Anthropic: merges tool results into one user turn and refuses what has no equivalent", () => {
    const out = openAIToAnthropic(
      {
        model: "m",
        messages: [
          { role: "system", content: "S" },
          { role: "user", content: "q" },
          {
            role: "assistant",
            content: null,
            tool_calls: [
              { id: "a", function: { name: "f", arguments: "{}" } },
              { id: "b", function: { name: "f", arguments: "{}" } },
            ],
          },
          { role: "tool", tool_call_id: "a", content: "1" },
          { role: "tool", tool_call_id: "b", content: "2" },
        ],
        stop: "X",
      },
      "claude-x",
    );
    expect(out).toMatchObject({ model: "claude-x", system: "S", max_tokens: 4096, stop_sequences: ["X"] });
    const msgs = out.messages as Array<{ role: string; content: unknown[] }>;
    expect(msgs.map((m) => m.role)).toEqual(["user", "assistant", "user"]);
    expect(msgs[2]!.content).toHaveLength(2);
    expect(() => openAIToAnthropic({ model: "m", messages: [{ role: "user", content: "q" }], n: 3 }, "c")).toThrow(
      expect.objectContaining({ code: "invalid_request", context: expect.objectContaining({ param: "n" }) }),
    );
  });
});
