import OpenAI from "openai";
import { zodResponseFormat } from "openai/helpers/zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { startStack, type Stack } from "../support/stack.ts";

/** response_format json_schema on a Claude model: a forced tool at Anthropic, JSON content here. */
let stack: Stack;
let client: OpenAI;

beforeAll(async () => {
  stack = await startStack("structured_output");
  client = new OpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret, maxRetries: 0 });
});
afterAll(async () => {
  await stack?.stop();
});

const person = {
  type: "json_schema" as const,
  json_schema: {
    name: "person",
    strict: true,
    schema: {
      type: "object",
      properties: { name: { type: "string" }, age: { type: "integer" }, tags: { type: "array", items: { type: "string" } } },
      required: ["name", "age", "tags"],
      additionalProperties: false,
    },
  },
};
const messages = [{ role: "user" as const, content: "Ada Lovelace was thirty six" }];

function expectPerson(p: unknown): void {
  expect(p).toEqual({ name: expect.any(String), age: expect.any(Number), tags: expect.any(Array) });
  expect(Number.isInteger((p as { age: number }).age)).toBe(true);
}

describe("structured output on a Claude model through chat completions", () => {
  it("json_schema: the content parses to the schema's shape, finish_reason stop, no tool calls", async () => {
    const r = await client.chat.completions.create({ model: "gw-claude", response_format: person, messages });
    const choice = r.choices[0]!;
    expectPerson(JSON.parse(choice.message.content!));
    expect(choice.message.tool_calls ?? []).toHaveLength(0);
    expect(choice.finish_reason).toBe("stop");
    expect(r.usage!.completion_tokens).toBeGreaterThan(0);
  });

  it("json_schema streamed: the concatenated content deltas parse, with usage", async () => {
    const stream = await client.chat.completions.create({ model: "gw-claude", stream: true, stream_options: { include_usage: true }, response_format: person, messages });
    let content = "";
    let finish: string | null = null;
    let usage: OpenAI.CompletionUsage | undefined;
    for await (const c of stream) {
      content += c.choices[0]?.delta?.content ?? "";
      expect(c.choices[0]?.delta?.tool_calls).toBeUndefined();
      finish = c.choices[0]?.finish_reason ?? finish;
      if (c.usage) usage = c.usage;
    }
    expectPerson(JSON.parse(content));
    expect(finish).toBe("stop");
    expect(usage!.completion_tokens).toBeGreaterThan(0);
  });

  it("chat.completions.parse gives the parsed object; json_object gives an object", async () => {
    const parsed = await client.chat.completions.parse({ model: "gw-claude", response_format: person, messages });
    expectPerson(parsed.choices[0]!.message.parsed);

    const obj = await client.chat.completions.create({ model: "gw-claude", response_format: { type: "json_object" }, messages: [{ role: "user", content: "any JSON object please" }] });
    expect(typeof JSON.parse(obj.choices[0]!.message.content!)).toBe("object");
  });

  it("chat.completions.parse with a zod schema (openai/helpers/zod) gives a typed, parsed object", async () => {
    const Person = z.object({ name: z.string(), age: z.number().int(), tags: z.array(z.string()), nickname: z.string().nullable() });
    const r = await client.chat.completions.parse({ model: "gw-claude", response_format: zodResponseFormat(Person, "person"), messages });
    const p = r.choices[0]!.message.parsed!;
    expect(Person.parse(p)).toEqual(p);
    expect(p.name).toBe("Ada Lovelace was thirty six");
    expect(p.age).toBe(5);
  });

  it("text.format json_schema on /v1/responses reaches Claude the same way", async () => {
    const r = await client.responses.create({ model: "gw-claude", input: "Ada Lovelace was thirty six", text: { format: { type: "json_schema", ...person.json_schema } } });
    expectPerson(JSON.parse(r.output_text));
  });

  it("refuses a tool_choice that forces another tool, naming the parameter", async () => {
    const tools = [{ type: "function" as const, function: { name: "lookup", parameters: { type: "object" } } }];
    const err = await client.chat.completions
      .create({ model: "gw-claude", response_format: person, tools, tool_choice: { type: "function", function: { name: "lookup" } }, messages })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.APIError>).param).toBe("tool_choice");
  });
});
