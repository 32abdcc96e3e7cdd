import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SseParser } from "../sse.js";
import type { UpstreamTarget } from "../types.js";
import { anthropicChat } from "./chat.js";
import { anthropicMessages } from "./messages.js";

/** Wire fixtures in the shape of Anthropic's extended-thinking reference (thinking + signature blocks). */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "..", "fixtures", name), "utf8");
const adapter = anthropicMessages({ version: undefined, beta: "interleaved-thinking-2025-05-14" });
const target = {
  provider: { code: "anthropic", kind: "anthropic", base_url: "https://api.anthropic.com/v1/" },
  deployment: { upstream_model: "claude-sonnet-4-5-20250929" },
  apiKey: "sk-ant-test",
} as unknown as UpstreamTarget;

describe("Anthropic native passthrough", () => {
  it("sends every Messages field with only the model rewritten, and forwards the beta header", () => {
    const body = {
      model: "gw-sonnet",
      max_tokens: 2048,
      stream: true,
      top_k: 5,
      thinking: { type: "enabled", budget_tokens: 1024 },
      system: [{ type: "text", text: "Long policy text", cache_control: { type: "ephemeral" } }],
      tools: [{ type: "web_search_20250305", name: "web_search" }],
      service_tier: "auto",
      messages: [{ role: "user", content: "What is 27 * 453?" }],
    };
    const r = adapter.buildChatRequest(body, target);
    expect(r.url).toBe("https://api.anthropic.com/v1/messages");
    expect(r.headers).toMatchObject({ "anthropic-version": "2023-06-01", "anthropic-beta": "interleaved-thinking-2025-05-14", "x-api-key": "sk-ant-test", accept: "text/event-stream" });
    expect(JSON.parse(r.body!)).toEqual({ ...body, model: "claude-sonnet-4-5-20250929" });
    expect(adapter.buildCountTokensRequest({ model: "gw-sonnet", messages: [] }, target).url).toBe("https://api.anthropic.com/v1/messages/count_tokens");
  });

  it("returns the provider's message with thinking blocks, only the model id public", () => {
    const wire = JSON.parse(fixture("anthropic-message-thinking.json")) as Record<string, unknown>;
    const parsed = adapter.parseChatResponse(structuredClone(wire), "gw-sonnet");
    expect(parsed.body).toEqual({ ...wire, model: "gw-sonnet" });
    // Cache writes and reads are prompt tokens; reads are the cached part.
    expect(parsed.usage).toMatchObject({ input_tokens: 14 + 2051, output_tokens: 96, cached_input_tokens: 0, cache_creation_input_tokens: 2051, estimated: false });
  });

  it("forwards a recorded thinking stream frame by frame, rewriting the model in message_start and taking usage from start and delta", () => {
    const wire = fixture("anthropic-stream-thinking.sse");
    const parse = adapter.streamParser("gw-sonnet", "claude-sonnet-4-5-20250929");
    const parsed = new SseParser().push(new TextEncoder().encode(wire)).map((e) => parse(e.data));
    const out = parsed.map((p) => p.forward ?? "").join("");
    // Every frame but message_stop (sent by the pipeline after billing) is the provider's, byte for byte, but the model.
    const expected = wire.replace('"model":"claude-sonnet-4-5-20250929"', '"model":"gw-sonnet"').replace('event: message_stop\ndata: {"type":"message_stop"}\n\n', "");
    expect(out).toBe(expected);
    expect(out).not.toContain("claude-sonnet");
    expect(parsed.at(-1)!.done).toBe(true);
    expect(parsed.map((p) => p.text).join("")).toContain("Let me solve this step by step");
    const withUsage = parsed.filter((p) => p.usage);
    expect(withUsage).toHaveLength(1);
    expect(withUsage[0]!.usage).toMatchObject({ input_tokens: 14 + 2051, output_tokens: 102, cached_input_tokens: 2051, cache_creation_input_tokens: 0, estimated: false });
  });

  it("refuses a stream event that is not JSON and maps a mid-stream error", () => {
    const parse = adapter.streamParser("gw-sonnet", "x");
    expect(() => parse("{not json")).toThrow(/invalid stream event/);
    expect(() => parse('{"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}')).toThrow(/Overloaded/);
  });
});

describe("one usage accounting for both parsers of a Messages stream", () => {
  const events = [
    { type: "message_start", message: { id: "msg_1", model: "claude-x", usage: { input_tokens: 25, cache_read_input_tokens: 10, cache_creation_input_tokens: 5, output_tokens: 1 } } },
    { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
    { type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hello" } },
    { type: "content_block_stop", index: 0 },
    // Newer API versions repeat some counts on the final delta, as null when unknown; server tool use is the delta's.
    { type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 15, cache_read_input_tokens: null, server_tool_use: { web_search_requests: 2 } } },
    { type: "message_stop" },
  ];
  const billed = (parse: (data: string) => { usage?: unknown }) => events.map((e) => parse(JSON.stringify(e)).usage).filter((u) => u !== undefined);
  const expected = { input_tokens: 40, output_tokens: 15, cached_input_tokens: 10, cache_creation_input_tokens: 5, web_search_requests: 2, estimated: false };

  it("the native parser keeps message_start's counts the delta leaves out or nulls", () => {
    expect(billed(adapter.streamParser("gw-claude", "claude-x"))).toEqual([expected]);
  });

  it("the chat translation bills exactly the same", () => {
    expect(billed(anthropicChat.streamParser("gw-claude", "claude-x", { model: "gw-claude", messages: [], stream: true }))).toEqual([expected]);
  });
});
