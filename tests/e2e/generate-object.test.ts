import { createAnthropic } from "@ai-sdk/anthropic";
import { createOpenAI } from "@ai-sdk/openai";
import { generateObject, generateText, type LanguageModel, Output, streamObject, tool } from "ai";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import type { AnyBody } from "../support/api.ts";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The Vercel AI SDK's structured output against the gateway, through each provider's own SDK
 * factory: OpenAI chat completions (`response_format` json_schema), OpenAI Responses (`text.format`)
 * and Anthropic Messages (a `json` tool it must call). The fake upstreams answer with an instance of the
 * schema they were sent, so the SDK's own validation passes only if the schema arrived intact.
 */
let stack: Stack;

const Person = z.object({
  name: z.string(),
  age: z.number().int().min(18).max(120),
  email: z.email(),
  role: z.enum(["admin", "member"]),
  tags: z.array(z.string()).min(1),
  address: z.object({ city: z.string(), since: z.iso.date() }),
  nickname: z.string().nullable(),
});

const prompt = "Ada Lovelace wrote the first program";
/** Set, so the Anthropic SDK does not warn that it capped an unknown model's limit. */
const maxOutputTokens = 1_000;

/** What the fake upstream last received on a path. */
function lastSent(path: string): AnyBody {
  const r = [...stack.fake.requests].reverse().find((q) => q.path === path);
  if (!r) throw new Error(`nothing sent to ${path}`);
  return r.body as AnyBody;
}

/** The JSON Schema the SDK wrote for Person, as far as the fake must read it. */
const personSchema = {
  type: "object",
  properties: { age: { type: "integer", minimum: 18, maximum: 120 }, email: { type: "string", format: "email" }, role: { enum: ["admin", "member"] }, tags: { type: "array", minItems: 1 } },
  required: ["name", "age", "email", "role", "tags", "address", "nickname"],
};

interface Route {
  name: string;
  model: () => LanguageModel;
  path: string;
  /** Where the request carried the schema (and, for tools, how the call was forced). */
  schemaSent: (body: AnyBody) => unknown;
}

const routes: Route[] = [
  {
    name: "chat completions (gw-chat-mini, OpenAI-compatible)",
    model: () => createOpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret }).chat("gw-chat-mini"),
    path: "/v1/chat/completions",
    schemaSent: (body) => {
      expect(body.response_format.type).toBe("json_schema");
      return body.response_format.json_schema.schema;
    },
  },
  {
    name: "Responses (gw-gpt, OpenAI natively)",
    model: () => createOpenAI({ baseURL: stack.baseUrl(), apiKey: stack.demo.secret })("gw-gpt"),
    path: "/v1/responses",
    schemaSent: (body) => {
      expect(body.text.format.type).toBe("json_schema");
      return body.text.format.schema;
    },
  },
  {
    name: "Messages (gw-claude, Anthropic)",
    model: () => createAnthropic({ baseURL: `${stack.dataPlanes[0]!.url}/v1`, apiKey: stack.demo.secret })("gw-claude"),
    path: "/v1/messages",
    schemaSent: (body) => {
      // The SDK offers the json tool alone and makes it call a tool (`any`), for a model it does not know.
      expect(body.tool_choice).toMatchObject({ type: "any" });
      expect(body.tools.map((t: AnyBody) => t.name)).toEqual(["json"]);
      return body.tools[0].input_schema;
    },
  },
];

beforeAll(async () => {
  stack = await startStack("generate_object");
});
afterAll(async () => {
  await stack?.stop();
});

describe.each(routes)("the AI SDK's structured output through $name", (route) => {
  it("generateObject gives an object the zod schema accepts, and the upstream got the schema", async () => {
    const { object, finishReason, usage, warnings } = await generateObject({ model: route.model(), schema: Person, schemaName: "person", prompt, maxOutputTokens, maxRetries: 0 });
    expect(warnings ?? []).toEqual([]);
    expect(Person.parse(object)).toEqual(object);
    // Seeded from the prompt where the schema lets it: what was asked reached the fake.
    expect(object).toMatchObject({ name: prompt, age: 18, email: "user@example.com", role: "admin", tags: [prompt] });
    expect(finishReason).toBe("stop");
    expect(usage.outputTokens).toBeGreaterThan(0);
    expect(route.schemaSent(lastSent(route.path))).toMatchObject(personSchema);

    // The same through generateText's output setting, which the SDK recommends over generateObject.
    const { output } = await generateText({ model: route.model(), output: Output.object({ schema: Person }), prompt, maxOutputTokens, maxRetries: 0 });
    expect(output).toEqual(object);
  });

  it("streamObject assembles the same object from the deltas", async () => {
    const result = streamObject({ model: route.model(), schema: Person, schemaName: "person", prompt, maxOutputTokens, maxRetries: 0 });
    let partials = 0;
    for await (const _ of result.partialObjectStream) partials++;
    const object = await result.object;
    expect(Person.parse(object)).toEqual(object);
    expect(object.name).toBe(prompt);
    expect(partials).toBeGreaterThan(1);
    expect(lastSent(route.path).stream).toBe(true);
    expect(route.schemaSent(lastSent(route.path))).toMatchObject(personSchema);
  });

  it("a forced tool (by name, or required) is called with arguments its input schema accepts", async () => {
    const Lookup = z.object({ query: z.string(), limit: z.number().int().min(1).max(10), exact: z.boolean() });
    const tools = { lookup: tool({ description: "Looks things up", inputSchema: Lookup }), other: tool({ description: "Not this one", inputSchema: z.object({ x: z.string() }) }) };
    for (const toolChoice of [{ type: "tool", toolName: "lookup" } as const, "required" as const]) {
      const r = await generateText({ model: route.model(), tools, toolChoice, prompt: "find the answer", maxOutputTokens, maxRetries: 0 });
      expect(r.toolCalls).toHaveLength(1);
      const call = r.toolCalls[0]!;
      expect(call.toolName).toBe("lookup");
      expect(Lookup.parse(call.input)).toEqual({ query: "find the answer", limit: 3, exact: true });
    }
  });
});
