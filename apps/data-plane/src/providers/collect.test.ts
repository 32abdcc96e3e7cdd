import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { anthropicChat } from "./anthropic/chat.js";
import { anthropicMessages } from "./anthropic/messages.js";
import { geminiChat } from "./gemini/chat.js";
import { openAICompatibleChat } from "./openai-compatible/chat.js";
import { openAIResponses } from "./openai/responses.js";
import { SseParser } from "./sse.js";
import type { ChatRequestBody, ParsedChatResponse, StreamCollector } from "./types.js";

/**
 * A non-streamed request held in tranches is streamed from its provider and its answer read whole
 * from the stream (WireAdapter.collect): the answer must be the one the provider's JSON gives. Read
 * here from wire fixtures in the shapes the providers document (providers/fixtures, gemini/fixtures).
 */
const fixture = (path: string) => readFileSync(join(import.meta.dirname, path), "utf8");
const events = (text: string) => new SseParser().push(new TextEncoder().encode(text));

/** Feeds a stream's events to a collector as the pipeline does (each parsed event, then the connection's end), and gives its answer. */
function collect(c: StreamCollector, text: string): ParsedChatResponse {
  let done = false;
  for (const e of events(text)) {
    const ev = c.parser(e.data);
    c.take(ev);
    done ||= ev.done;
  }
  if (!done) {
    const last = c.parser.end?.();
    expect(last?.done, "the stream ended complete").toBe(true);
    c.take(last!);
  }
  return c.answer();
}

const sse = (data: unknown, event?: string) => `${event ? `event: ${event}\n` : ""}data: ${JSON.stringify(data)}\n\n`;
const openai = openAICompatibleChat();

describe("chat completions read from their stream", () => {
  it("parallel tool calls: each by its index, the arguments joined, the answer equal to the JSON one", () => {
    const collected = collect(openai.collect!("gw-4.1", "gpt-4.1-2025-04-14"), fixture("fixtures/openai-chat-stream-tool-calls.sse"));
    const json = openai.parseChatResponse(JSON.parse(fixture("fixtures/openai-chat-tool-calls.json")), "gw-4.1");
    expect(collected.body).toEqual(json.body);
    expect(collected.usage).toEqual(json.usage);
    expect((collected.body.choices as Array<{ message: { tool_calls: Array<{ function: { arguments: string } }> } }>)[0]!.message.tool_calls[1]!.function.arguments).toBe(
      '{"location": "Bogotá, Colombia"}',
    );
  });

  it("text, the role chunk's refusal, the fields of the chunks (service tier, fingerprint) and the usage chunk's counts", () => {
    const collected = collect(openai.collect!("gw-o4", "o4-mini-2025-04-16"), fixture("fixtures/openai-chat-stream-reasoning-cached.sse"));
    expect(collected.body).toEqual({
      id: "chatcmpl-BQ5zQ1vN0o8Yd2dVt0kS3aPq7rXcL",
      object: "chat.completion",
      created: 1745510490,
      model: "gw-o4",
      service_tier: "default",
      system_fingerprint: null,
      choices: [{ index: 0, message: { role: "assistant", content: "Forty-two.", refusal: null }, finish_reason: "stop" }],
      usage: {
        prompt_tokens: 1290,
        completion_tokens: 452,
        total_tokens: 1742,
        prompt_tokens_details: { cached_tokens: 1152, audio_tokens: 0 },
        completion_tokens_details: { reasoning_tokens: 448, audio_tokens: 0, accepted_prediction_tokens: 0, rejected_prediction_tokens: 0 },
      },
    });
    expect(collected.usage).toEqual({ input_tokens: 1290, output_tokens: 452, cached_input_tokens: 1152, reasoning_tokens: 448, estimated: false, service_tier: "default" });
  });

  it("usage in a final chunk that still has a choice", () => {
    const collected = collect(openai.collect!("gw-4o", "gpt-4o-2024-08-06"), fixture("fixtures/openai-chat-stream-usage-in-final-choice.sse"));
    const choice = (collected.body.choices as Array<Record<string, unknown>>)[0];
    expect(choice).toEqual({ index: 0, message: { role: "assistant", content: "Hello there", refusal: null }, logprobs: null, finish_reason: "stop" });
    expect(collected.usage).toMatchObject({ input_tokens: 1117, output_tokens: 2, cached_input_tokens: 1024 });
  });

  it("n = 2: each choice by its index, with its own text, reasoning, log probabilities and finish; a server's own fields kept", () => {
    const chunk = (choices: unknown[], extra: Record<string, unknown> = {}) => sse({ id: "c1", object: "chat.completion.chunk", created: 1, model: "m", choices, ...extra });
    const stream =
      chunk([
        { index: 0, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null },
        { index: 1, delta: { role: "assistant", content: "" }, finish_reason: null, logprobs: null },
      ]) +
      chunk([{ index: 1, delta: { reasoning_content: "think " }, finish_reason: null, logprobs: null }]) +
      chunk([{ index: 1, delta: { content: "Bon" }, finish_reason: null, logprobs: { content: [{ token: "Bon", logprob: -0.1 }] } }]) +
      chunk([{ index: 0, delta: { content: "Hel" }, finish_reason: null, logprobs: { content: [{ token: "Hel", logprob: -0.2 }] } }]) +
      chunk([{ index: 1, delta: { reasoning_content: "hard" }, finish_reason: null, logprobs: null }]) +
      chunk([{ index: 0, delta: { content: "lo" }, finish_reason: null, logprobs: { content: [{ token: "lo", logprob: -0.3 }] } }]) +
      chunk([{ index: 1, delta: { content: "jour" }, finish_reason: "length", logprobs: { content: [{ token: "jour", logprob: -0.4 }] }, content_filter_results: { hate: { filtered: false } } }]) +
      chunk([{ index: 0, delta: {}, finish_reason: "stop", logprobs: null }]) +
      chunk([], { usage: { prompt_tokens: 5, completion_tokens: 8, total_tokens: 13 } }) +
      "data: [DONE]\n\n";
    const collected = collect(openai.collect!("gw", "m", { model: "gw", messages: [], n: 2 }), stream);
    expect(collected.body.choices).toEqual([
      {
        index: 0,
        message: { role: "assistant", content: "Hello" },
        logprobs: {
          content: [
            { token: "Hel", logprob: -0.2 },
            { token: "lo", logprob: -0.3 },
          ],
        },
        finish_reason: "stop",
      },
      {
        index: 1,
        message: { role: "assistant", content: "Bonjour", reasoning_content: "think hard" },
        logprobs: {
          content: [
            { token: "Bon", logprob: -0.1 },
            { token: "jour", logprob: -0.4 },
          ],
        },
        finish_reason: "length",
        content_filter_results: { hate: { filtered: false } },
      },
    ]);
    expect(collected.body.usage).toEqual({ prompt_tokens: 5, completion_tokens: 8, total_tokens: 13 });
  });

  it("a refusal: content null beside it, as an answer has it", () => {
    const chunk = (delta: unknown, finish: string | null = null) => sse({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta, finish_reason: finish }] });
    const stream = chunk({ role: "assistant", content: null, refusal: "" }) + chunk({ refusal: "I can't " }) + chunk({ refusal: "help with that." }) + chunk({}, "stop") + "data: [DONE]\n\n";
    const collected = collect(openai.collect!("gw", "m"), stream);
    expect((collected.body.choices as Array<{ message: unknown }>)[0]!.message).toEqual({ role: "assistant", content: null, refusal: "I can't help with that." });
  });
});

describe("Messages read from their stream", () => {
  const messages = anthropicMessages({ version: undefined, beta: undefined });

  it("thinking with its signature, then text: the Message as the JSON has it, usage from message_start and message_delta", () => {
    const collected = collect(messages.collect!("gw-claude", "claude-sonnet-4-5-20250929"), fixture("fixtures/anthropic-stream-thinking.sse"));
    expect(collected.body).toEqual({
      id: "msg_01GZ4sRJTAXUqXuYbLbMo5XE",
      type: "message",
      role: "assistant",
      model: "gw-claude",
      content: [
        {
          type: "thinking",
          thinking: "Let me solve this step by step:\n\n1. First break down 27 * 453\n2. 453 = 400 + 50 + 3",
          signature:
            "EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds7DFIBV8gJDVRc0AqdDNvVLCYCvDkEB4kCmqAcC8tQ5bbGHwRSQKpUXgpSRsWRvxACe5ueKaiwkL3TGsNZ3tQkmfdRLlHpb5rSvt5PJA3LkYZYrhtbmP5ahCJv9uamN3fFIaDHvlhkpMDlbJ6mpq7Q==",
        },
        { type: "text", text: "27 * 453 = 12,231" },
      ],
      stop_reason: "end_turn",
      stop_sequence: null,
      usage: { input_tokens: 14, cache_creation_input_tokens: 0, cache_read_input_tokens: 2051, output_tokens: 102, service_tier: "standard" },
    });
    expect(collected.usage).toEqual({ input_tokens: 14 + 2051, output_tokens: 102, cached_input_tokens: 2051, cache_creation_input_tokens: 0, estimated: false, service_tier: "standard" });
  });

  it("a tool's input parsed from its JSON deltas", () => {
    const collected = collect(messages.collect!("gw-claude", "claude-sonnet-4-5-20250929"), fixture("fixtures/anthropic-stream-tool-use.sse"));
    expect(collected.body.content).toEqual([
      { type: "text", text: "Okay, let's check the weather." },
      { type: "tool_use", id: "toolu_01T1x1fJ34qAmk2tNTrN7Up6", name: "get_weather", input: { location: "San Francisco, CA" } },
    ]);
    expect(collected.body.stop_reason).toBe("tool_use");
  });

  it("redacted thinking, a web search and its results, citations; message_delta's other fields and usage counts over message_start's", () => {
    const ev = (data: Record<string, unknown> & { type: string }) => sse(data, data.type);
    const stream =
      ev({
        type: "message_start",
        message: { id: "msg_1", type: "message", role: "assistant", model: "claude", content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 1 } },
      }) +
      ev({ type: "content_block_start", index: 0, content_block: { type: "redacted_thinking", data: "EmwKAhgB" } }) +
      ev({ type: "content_block_stop", index: 0 }) +
      ev({ type: "content_block_start", index: 1, content_block: { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: {} } }) +
      ev({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: '{"query": "wea' } }) +
      ev({ type: "content_block_delta", index: 1, delta: { type: "input_json_delta", partial_json: 'ther"}' } }) +
      ev({ type: "content_block_stop", index: 1 }) +
      ev({
        type: "content_block_start",
        index: 2,
        content_block: { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [{ type: "web_search_result", url: "https://example.com/", title: "Ex" }] },
      }) +
      ev({ type: "content_block_stop", index: 2 }) +
      ev({ type: "content_block_start", index: 3, content_block: { type: "text", text: "", citations: null } }) +
      ev({ type: "content_block_delta", index: 3, delta: { type: "citations_delta", citation: { type: "web_search_result_location", url: "https://example.com/", cited_text: "sunny" } } }) +
      ev({ type: "content_block_delta", index: 3, delta: { type: "text_delta", text: "Sunny." } }) +
      ev({ type: "content_block_stop", index: 3 }) +
      ev({
        type: "message_delta",
        delta: { stop_reason: "end_turn", stop_sequence: null, stop_details: null },
        usage: { input_tokens: 12, output_tokens: 30, server_tool_use: { web_search_requests: 1 } },
        context_management: { applied_edits: [] },
      }) +
      ev({ type: "message_stop" });
    const collected = collect(messages.collect!("gw-claude", "claude"), stream);
    expect(collected.body).toEqual({
      id: "msg_1",
      type: "message",
      role: "assistant",
      model: "gw-claude",
      content: [
        { type: "redacted_thinking", data: "EmwKAhgB" },
        { type: "server_tool_use", id: "srvtoolu_1", name: "web_search", input: { query: "weather" } },
        { type: "web_search_tool_result", tool_use_id: "srvtoolu_1", content: [{ type: "web_search_result", url: "https://example.com/", title: "Ex" }] },
        { type: "text", text: "Sunny.", citations: [{ type: "web_search_result_location", url: "https://example.com/", cited_text: "sunny" }] },
      ],
      stop_reason: "end_turn",
      stop_sequence: null,
      stop_details: null,
      context_management: { applied_edits: [] },
      usage: { input_tokens: 12, output_tokens: 30, server_tool_use: { web_search_requests: 1 } },
    });
    expect(collected.usage).toMatchObject({ input_tokens: 12, output_tokens: 30, web_search_requests: 1 });
  });

  it("through the chat adapter, a structured answer is the JSON's: the tool input as JSON serializes it, not as the stream spaced it", () => {
    const request: ChatRequestBody = {
      model: "gw-claude",
      messages: [{ role: "user", content: "Who?" }],
      response_format: { type: "json_schema", json_schema: { name: "person", schema: { type: "object" } } },
    };
    const collected = collect(anthropicChat.collect!("gw-claude", "claude-sonnet-4-5-20250929", request), fixture("fixtures/anthropic-stream-forced-tool.sse"));
    const json = anthropicChat.parseChatResponse(JSON.parse(fixture("fixtures/anthropic-message-forced-tool.json")), "gw-claude", request);
    // The stream's partial JSON reads {"name": "Ada Lovelace", "age": 36}; the answer's content is compact either way.
    expect(collected.body).toEqual({ ...json.body, id: collected.body.id, created: collected.body.created });
    expect((collected.body.choices as Array<{ message: { content: string } }>)[0]!.message.content).toBe('{"name":"Ada Lovelace","age":36}');
    expect(collected.usage).toEqual(json.usage);
  });

  it("a final delta without usage: message_start's output count replaced by what was generated, counted, and nothing reported", () => {
    const ev = (data: Record<string, unknown> & { type: string }) => sse(data, data.type);
    const stream =
      ev({ type: "message_start", message: { id: "m", type: "message", role: "assistant", model: "c", content: [], usage: { input_tokens: 10, output_tokens: 1 } } }) +
      ev({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }) +
      ev({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "twelve chars" } }) +
      ev({ type: "content_block_stop", index: 0 }) +
      ev({ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null } }) +
      ev({ type: "message_stop" });
    const c = messages.collect!("gw-claude", "c");
    let final = false;
    for (const e of events(stream)) {
      const parsed = c.parser(e.data);
      final ||= parsed.usage !== undefined;
      c.take(parsed);
    }
    expect(final).toBe(false);
    expect(c.answer().body.usage).toEqual({ input_tokens: 10, output_tokens: 3 });
  });
});

describe("Gemini read from its stream", () => {
  it("function calls with their signatures in their ids, the finish, the usage: as the JSON answer's translation", () => {
    const collected = collect(geminiChat.collect!("gw-gemini", "gemini-3-flash-preview"), fixture("gemini/fixtures/stream-function-call.sse"));
    const body = collected.body as {
      id: string;
      choices: Array<{ message: { content: unknown; tool_calls: Array<{ id: string; function: { name: string; arguments: string } }> }; finish_reason: string }>;
    };
    expect(body.id).toMatch(/^chatcmpl-/);
    expect(body.choices).toHaveLength(1);
    expect(body.choices[0]!.finish_reason).toBe("tool_calls");
    expect(body.choices[0]!.message.content).toBeNull();
    expect(body.choices[0]!.message.tool_calls[0]!.id).toMatch(/^call_[0-9a-f]{24}_ts_/);
    expect(body.choices[0]!.message.tool_calls[0]!.function).toEqual({ name: "get_current_weather", arguments: '{"location":"Boston, MA"}' });
    expect(collected.body.usage).toEqual({ ...(collected.body.usage as object), prompt_tokens: collected.usage!.input_tokens, completion_tokens: collected.usage!.output_tokens });
  });

  it("thoughts counted, not shown; the text of every chunk joined; the same choice, usage and id as the JSON of the same answer", () => {
    const text = fixture("gemini/fixtures/stream-thinking-cached.sse");
    const collected = collect(geminiChat.collect!("gw-gemini", "gemini-2.5-flash"), text);
    // The answer as Gemini's JSON would carry it: the chunks' parts in one candidate, the last usage.
    const chunks = events(text).map(
      (e) => JSON.parse(e.data) as { candidates: Array<{ content: { parts: unknown[] }; finishReason?: string }>; usageMetadata: unknown; responseId: string; modelVersion: string },
    );
    const last = chunks.at(-1)!;
    const whole = {
      candidates: [{ content: { role: "model", parts: chunks.flatMap((c) => c.candidates[0]!.content.parts) }, finishReason: "STOP", index: 0 }],
      usageMetadata: last.usageMetadata,
      responseId: last.responseId,
      modelVersion: last.modelVersion,
    };
    const json = geminiChat.parseChatResponse(whole, "gw-gemini");
    expect(collected.body).toEqual({ ...json.body, created: collected.body.created });
    expect(collected.usage).toEqual(json.usage);
    expect((collected.body.choices as Array<{ message: { content: string } }>)[0]!.message.content).toBe("The primes below ten are 2, 3, 5 and 7: four of them.");
  });
});

describe("Responses read from their stream", () => {
  it("the terminal event's Response, as the JSON answer; or its output from the items' done events when it leaves it out", () => {
    const text = fixture("fixtures/openai-responses-stream-reasoning-cached.sse");
    const collected = collect(openAIResponses.collect!("gw-gpt", "gpt-5"), text);
    const completed = events(text).map((e) => JSON.parse(e.data) as { type: string; response?: Record<string, unknown> });
    const final = completed.find((e) => e.type === "response.completed")!.response!;
    expect(collected.body).toEqual({ ...final, model: "gw-gpt" });
    expect(collected.usage).toEqual(openAIResponses.parseChatResponse(final, "gw-gpt").usage);

    const withoutOutput = text.replace(/("type":"response\.completed".*?"response":\{.*?)"output":\[.*?\],"parallel_tool_calls"/, '$1"parallel_tool_calls"');
    expect(withoutOutput).not.toBe(text);
    expect(collect(openAIResponses.collect!("gw-gpt", "gpt-5"), withoutOutput).body).toEqual({ ...final, model: "gw-gpt" });
  });
});
