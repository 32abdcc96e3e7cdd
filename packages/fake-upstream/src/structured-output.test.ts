import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FakeUpstream, startFakeUpstream } from "./index.js";

/** The fakes' structured answers over HTTP, streamed and not, beside the echo they keep for plain prompts. */
let fake: FakeUpstream;

beforeAll(async () => {
  fake = await startFakeUpstream();
});
afterAll(async () => {
  await fake?.close();
});

// Runs of spaces and a tab: the word-by-word stream must still deliver the exact JSON.
const spaced = "Ada  Lovelace\tthirty six";
const person = { type: "object", properties: { name: { type: "string" }, age: { type: "integer", minimum: 18 } }, required: ["name", "age"], additionalProperties: false };

async function post(path: string, body: object): Promise<Record<string, unknown>> {
  const r = await fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  expect(r.status).toBe(200);
  return (await r.json()) as Record<string, unknown>;
}

/** The `data:` payloads of an SSE answer, [DONE] left out. */
async function events(path: string, body: object): Promise<Array<Record<string, unknown>>> {
  const r = await fetch(`${fake.url}${path}`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ ...body, stream: true }) });
  const text = await r.text();
  return [...text.matchAll(/^data: (.*)$/gm)]
    .map((m) => m[1]!)
    .filter((d) => d !== "[DONE]")
    .map((d) => JSON.parse(d) as Record<string, unknown>);
}

type ChatAnswer = { choices: Array<{ message: { content: string | null; tool_calls?: Array<{ function: { name: string; arguments: string } }> }; finish_reason: string }> };
type ChatChunk = { choices: Array<{ delta: { content?: string } }> };

describe("chat completions", () => {
  const chat = { model: "fake-chat", messages: [{ role: "user", content: spaced }] };

  it("json_schema: the content is JSON for the schema, the same over the stream's deltas", async () => {
    const body = { ...chat, response_format: { type: "json_schema", json_schema: { name: "person", schema: person, strict: true } } };
    const r = (await post("/v1/chat/completions", body)) as unknown as ChatAnswer;
    const content = r.choices[0]!.message.content!;
    expect(JSON.parse(content)).toEqual({ name: spaced, age: 18 });
    const streamed = ((await events("/v1/chat/completions", body)) as unknown as ChatChunk[]).map((c) => c.choices[0]?.delta.content ?? "").join("");
    expect(streamed).toBe(content);
  });

  it("json_object: a JSON object carrying the user's text", async () => {
    const r = (await post("/v1/chat/completions", { ...chat, response_format: { type: "json_object" } })) as unknown as ChatAnswer;
    expect(JSON.parse(r.choices[0]!.message.content!)).toEqual({ text: spaced });
  });

  it("a tool forced by name is called with arguments for its parameters; 'none' calls nothing; offered alone, the first gets the text", async () => {
    const tools = [
      { type: "function", function: { name: "first", parameters: { type: "object", properties: { q: { type: "string" } } } } },
      { type: "function", function: { name: "person", parameters: person } },
    ];
    const forced = (await post("/v1/chat/completions", { ...chat, tools, tool_choice: { type: "function", function: { name: "person" } } })) as unknown as ChatAnswer;
    expect(forced.choices[0]!.finish_reason).toBe("tool_calls");
    expect(forced.choices[0]!.message.tool_calls![0]!.function.name).toBe("person");
    expect(JSON.parse(forced.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual({ name: spaced, age: 18 });
    const none = (await post("/v1/chat/completions", { ...chat, tools, tool_choice: "none" })) as unknown as ChatAnswer;
    expect(none.choices[0]!.message).toMatchObject({ content: "Echo: Ada Lovelace thirty six" });
    const auto = (await post("/v1/chat/completions", { ...chat, tools })) as unknown as ChatAnswer;
    expect(JSON.parse(auto.choices[0]!.message.tool_calls![0]!.function.arguments)).toEqual({ text: spaced });
  });
});

describe("Responses", () => {
  const base = { model: "fake-gpt", input: spaced, store: false };

  it("text.format json_schema: output_text is JSON for the schema, the same over the deltas", async () => {
    const body = { ...base, text: { format: { type: "json_schema", name: "person", schema: person, strict: true } } };
    const r = (await post("/v1/responses", body)) as { output: Array<{ content: Array<{ text: string }> }> };
    const text = r.output[0]!.content[0]!.text;
    expect(JSON.parse(text)).toEqual({ name: spaced, age: 18 });
    const evs = await events("/v1/responses", body);
    expect(
      evs
        .filter((e) => e.type === "response.output_text.delta")
        .map((e) => e.delta)
        .join(""),
    ).toBe(text);
  });

  it("a forced function ('required') is called with arguments for its parameters", async () => {
    const r = (await post("/v1/responses", { ...base, tools: [{ type: "function", name: "person", parameters: person }], tool_choice: "required" })) as {
      output: Array<{ type: string; arguments: string }>;
    };
    expect(r.output[0]!.type).toBe("function_call");
    expect(JSON.parse(r.output[0]!.arguments)).toEqual({ name: spaced, age: 18 });
  });
});

describe("Anthropic Messages", () => {
  const base = { model: "fake-claude", max_tokens: 100, messages: [{ role: "user", content: spaced }], tools: [{ name: "person", input_schema: person }] };

  it("tool_choice any calls the tool with an input for its schema, streamed as the same JSON; none answers in text", async () => {
    const r = (await post("/v1/messages", { ...base, tool_choice: { type: "any" } })) as { content: Array<{ type: string; input?: unknown }>; stop_reason: string };
    expect(r.stop_reason).toBe("tool_use");
    expect(r.content).toEqual([expect.objectContaining({ type: "tool_use", name: "person", input: { name: spaced, age: 18 } })]);
    const evs = await events("/v1/messages", { ...base, tool_choice: { type: "any" } });
    const json = evs
      .filter((e) => e.type === "content_block_delta")
      .map((e) => (e.delta as { partial_json: string }).partial_json)
      .join("");
    expect(JSON.parse(json)).toEqual({ name: spaced, age: 18 });
    const none = (await post("/v1/messages", { ...base, tool_choice: { type: "none" } })) as { content: Array<{ type: string }> };
    expect(none.content.map((b) => b.type)).toEqual(["text"]);
  });
});
