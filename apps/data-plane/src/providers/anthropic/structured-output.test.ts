import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SseParser } from "../sse.js";
import type { ChatRequestBody } from "../types.js";
import { anthropicChat, openAIToAnthropic } from "./chat.js";

/** Recorded wire fixtures of a forced tool, in the shape Anthropic's Messages reference documents. */
const fixture = (name: string) => readFileSync(join(import.meta.dirname, "..", "fixtures", name), "utf8");
const events = (name: string) => new SseParser().push(new TextEncoder().encode(fixture(name)));

const schema = { type: "object", properties: { name: { type: "string" }, age: { type: "integer" } }, required: ["name", "age"], additionalProperties: false };
const request = (extra: Record<string, unknown> = {}): ChatRequestBody => ({
  model: "gw-claude",
  messages: [{ role: "user", content: "Ada Lovelace, 36" }],
  response_format: { type: "json_schema", json_schema: { name: "person", description: "A person.", schema, strict: true } },
  ...extra,
});
const param = (p: string) => expect.objectContaining({ code: "invalid_request", context: expect.objectContaining({ param: p }) });
type Choice = { message: { content: string | null; tool_calls?: unknown[] }; finish_reason: string };

describe("response_format on Anthropic: the request", () => {
  it("sends the schema as one tool and forces it", () => {
    const out = openAIToAnthropic(request(), "claude-sonnet-4-5");
    expect(out.tools).toEqual([{ name: "person", description: "A person.", input_schema: schema }]);
    expect(out.tool_choice).toEqual({ type: "tool", name: "person" });
  });

  it("json_object is a schema-less object tool", () => {
    const out = openAIToAnthropic(request({ response_format: { type: "json_object" } }), "c");
    expect(out.tools).toEqual([expect.objectContaining({ name: "json_object", input_schema: { type: "object" } })]);
    expect(out.tool_choice).toEqual({ type: "tool", name: "json_object" });
  });

  it("text is no response_format at all", () => {
    const out = openAIToAnthropic(request({ response_format: { type: "text" } }), "c");
    expect(out.tools).toBeUndefined();
    expect(out.tool_choice).toBeUndefined();
  });

  it("keeps the caller's tools callable beside the answer (tool_choice any), parallel_tool_calls kept", () => {
    const tools = [{ type: "function", function: { name: "lookup", parameters: { type: "object" } } }];
    const out = openAIToAnthropic(request({ tools, tool_choice: "auto", parallel_tool_calls: false }), "c");
    expect((out.tools as Array<{ name: string }>).map((t) => t.name)).toEqual(["lookup", "person"]);
    expect(out.tool_choice).toEqual({ type: "any", disable_parallel_tool_use: true });
  });

  it("refuses what contradicts a forced answer, naming the parameter", () => {
    const tools = [{ type: "function", function: { name: "lookup" } }];
    for (const tool_choice of ["required", "none", { type: "function", function: { name: "lookup" } }]) {
      expect(() => openAIToAnthropic(request({ tools, tool_choice }), "c")).toThrow(param("tool_choice"));
    }
    expect(() => openAIToAnthropic(request({ tools: [{ type: "function", function: { name: "person" } }] }), "c")).toThrow(param("response_format.json_schema.name"));
    expect(() => openAIToAnthropic(request({ response_format: { type: "json_schema", json_schema: { schema } } }), "c")).toThrow(param("response_format.json_schema.name"));
    expect(() => openAIToAnthropic(request({ response_format: { type: "xml" } }), "c")).toThrow(param("response_format.type"));
  });
});

describe("response_format on Anthropic: the answer", () => {
  it("returns the forced tool's input as JSON content, finish_reason stop, no tool_calls", () => {
    const parsed = anthropicChat.parseChatResponse(JSON.parse(fixture("anthropic-message-forced-tool.json")), "gw-claude", request());
    const choice = (parsed.body.choices as Choice[])[0]!;
    expect(JSON.parse(choice.message.content!)).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(choice.message.tool_calls).toBeUndefined();
    expect(choice.finish_reason).toBe("stop");
    expect(parsed.usage).toMatchObject({ input_tokens: 412, output_tokens: 54 });
  });

  it("without response_format the same message is a tool call, as before", () => {
    const parsed = anthropicChat.parseChatResponse(JSON.parse(fixture("anthropic-message-forced-tool.json")), "gw-claude", request({ response_format: undefined }));
    const choice = (parsed.body.choices as Choice[])[0]!;
    expect(choice.message.content).toBeNull();
    expect(choice.finish_reason).toBe("tool_calls");
  });

  it("a caller's tool called beside the answer stays a tool call", () => {
    const wire = JSON.parse(fixture("anthropic-message-forced-tool.json"));
    wire.content.unshift({ type: "tool_use", id: "toolu_x", name: "lookup", input: { q: "Ada" } });
    const parsed = anthropicChat.parseChatResponse(wire, "gw-claude", request({ tools: [{ type: "function", function: { name: "lookup" } }] }));
    const choice = (parsed.body.choices as Choice[])[0]!;
    expect(JSON.parse(choice.message.content!)).toEqual({ name: "Ada Lovelace", age: 36 });
    expect(choice.message.tool_calls).toHaveLength(1);
    expect(choice.finish_reason).toBe("tool_calls");
  });
});

describe("response_format on Anthropic: the stream", () => {
  it("turns input_json_delta of the answer tool into content deltas that parse, finish_reason stop", () => {
    const parse = anthropicChat.streamParser("gw-claude", "claude-sonnet-4-5-20250929", request({ stream: true }));
    const parsed = events("anthropic-stream-forced-tool.sse").map((e) => parse(e.data));
    const deltas = parsed.flatMap((p) => (p.chunk?.choices as Array<{ delta: { content?: string; tool_calls?: unknown[] }; finish_reason: string | null }>) ?? []);
    expect(deltas.some((d) => d.delta.tool_calls)).toBe(false);
    const content = deltas.map((d) => d.delta.content ?? "").join("");
    expect(JSON.parse(content)).toEqual({ name: "Ada Lovelace", age: 36 });
    // The answer is output: counted when the provider reports no usage.
    expect(parsed.map((p) => p.text).join("")).toBe(content);
    expect(deltas.at(-1)!.finish_reason).toBe("stop");
    expect(parsed.find((p) => p.usage)!.usage).toMatchObject({ input_tokens: 412, output_tokens: 54 });
    expect(parsed.at(-1)!.done).toBe(true);
  });
});
