import { describe, expect, it } from "vitest";
import { ERROR_CODES, GatewayError } from "@gateway/errors";
import type { ChatRequestBody } from "../types.js";
import { openAIToGemini } from "./request.js";
import { SCHEMA_LIMITS, schemaBudget, toGeminiSchema } from "./schema.js";

/**
 * The conversion budget: Gemini's schemas have no `$ref`, so every use of a definition is a copy,
 * and definitions that each use the next one twice expand to 2^levels copies. The schemas of one
 * request are refused (a 400 naming the field) once they expand past SCHEMA_LIMITS together.
 */

/** `levels` definitions, each an object whose `fan` properties all use the next one. */
function doubling(levels: number, fan = 2): Record<string, unknown> {
  const $defs: Record<string, unknown> = {};
  for (let i = 0; i < levels; i++) {
    const next = { $ref: `#/$defs/d${i + 1}` };
    $defs[`d${i}`] = i + 1 < levels ? { type: "object", properties: Object.fromEntries(Array.from({ length: fan }, (_, j) => [String.fromCharCode(97 + j), next])) } : { type: "string" };
  }
  return { $ref: "#/$defs/d0", $defs };
}

/** An object schema of `n` string properties: n + 1 nodes. */
const flat = (n: number) => ({ type: "object", properties: Object.fromEntries(Array.from({ length: n }, (_, i) => [`p${i}`, { type: "string" }])) });

const body = (extra: Partial<ChatRequestBody> = {}): ChatRequestBody => ({ model: "gw-gemini", messages: [{ role: "user", content: "hi" }], ...extra });
const tool = (name: string, parameters: unknown) => ({ type: "function", function: { name, parameters } });
const answer = (schema: unknown) => ({ type: "json_schema", json_schema: { name: "a", schema } });

/** The error `f` throws (it must throw). */
function thrown(f: () => unknown): GatewayError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(GatewayError);
    return e as GatewayError;
  }
  throw new Error("expected a refusal");
}

/** A 400 naming `param`, saying which limit the inlined references went past. */
function expectPastBudget(e: GatewayError, param: string, limit: "nodes" | "text") {
  expect(e.code).toBe("invalid_request");
  expect(ERROR_CODES[e.code].http).toBe(400);
  expect(e.context.param).toBe(param);
  expect(e.message).toContain(`'${param}': the schema expands past`);
  expect(e.message).toContain(limit === "nodes" ? "10,000 nodes" : "1,048,576 characters");
  expect(e.message).toContain("once its references ($ref) are inlined");
}

describe("the conversion budget", () => {
  it("refuses 19 levels of definitions that each use the next one twice (2 KB that expanded to 15 MB), and 24, with a 400 naming the field", () => {
    const b = body({ tools: [tool("f", doubling(19))] });
    expect(JSON.stringify(b).length).toBeLessThan(2_048);
    expectPastBudget(
      thrown(() => openAIToGemini(b, "gemini-2.5-flash")),
      "tools[0].function.parameters",
      "nodes",
    );
    // 24 levels exhausted the memory before.
    expectPastBudget(
      thrown(() => openAIToGemini(body({ response_format: answer(doubling(24)) }), "gemini-2.5-flash")),
      "response_format.json_schema.schema",
      "nodes",
    );
    // And at the tool's index, among others.
    const tools = [tool("a", flat(3)), tool("b", flat(3)), tool("c", flat(3)), tool("d", doubling(19, 3))];
    expectPastBudget(
      thrown(() => openAIToGemini(body({ tools }), "gemini-2.5-flash")),
      "tools[3].function.parameters",
      "nodes",
    );
  });

  it("refuses the same blow-up through allOf, anyOf and references with keywords beside them", () => {
    const chain = (step: (next: string) => unknown) => {
      const $defs: Record<string, unknown> = {};
      for (let i = 0; i < 30; i++) $defs[`d${i}`] = i < 29 ? step(`#/$defs/d${i + 1}`) : { type: "object", properties: { x: { type: "string" } } };
      return { $ref: "#/$defs/d0", $defs };
    };
    const cases = [
      chain((next) => ({ allOf: [{ $ref: next }, { $ref: next }] })),
      chain((next) => ({ anyOf: [{ $ref: next }, { $ref: next }] })),
      chain((next) => ({ type: "object", properties: { a: { $ref: next, description: "first" }, b: { $ref: next, description: "second" } } })),
      chain((next) => ({ type: "array", items: { anyOf: [{ $ref: next }, { type: "null" }, { type: "array", items: { $ref: next } }] } })),
    ];
    for (const schema of cases)
      expectPastBudget(
        thrown(() => toGeminiSchema(schema, { param: "p", ordering: true })),
        "p",
        "nodes",
      );
  });

  it("counts the text copied too: a long description in a definition used thousands of times", () => {
    const schema = doubling(12) as { $defs: Record<string, unknown> };
    // 2^11 uses of 1,000 characters: under the node limit, past the text limit.
    schema.$defs.d11 = { type: "string", description: "x".repeat(1_000) };
    expectPastBudget(
      thrown(() => openAIToGemini(body({ response_format: answer(schema) }), "gemini-2.5-flash")),
      "response_format.json_schema.schema",
      "text",
    );
    // Empty strings cost their quotes: an enum of them cannot expand for free.
    schema.$defs.d11 = { enum: Array.from({ length: 300 }, () => "") };
    expectPastBudget(
      thrown(() => toGeminiSchema(schema, { param: "p", ordering: false })),
      "p",
      "text",
    );
  });

  it("stops converting at the limit, before the rest of the schema is read", () => {
    let read = false;
    const last = {
      get type() {
        read = true;
        return "string";
      },
    };
    const schema = { type: "object", $defs: doubling(30).$defs, properties: { blowUp: { $ref: "#/$defs/d0" }, last } };
    expectPastBudget(
      thrown(() => toGeminiSchema(schema, { param: "p", ordering: false })),
      "p",
      "nodes",
    );
    expect(read).toBe(false);
  });

  it("counts the nodes of the output: a schema of exactly the limit converts, one more node is refused; `X | null` is one node", () => {
    expect(SCHEMA_LIMITS.nodes).toBe(10_000);
    const budget = schemaBudget();
    expect(Object.keys(toGeminiSchema(flat(SCHEMA_LIMITS.nodes - 1), { param: "p", ordering: false, budget }).properties!)).toHaveLength(SCHEMA_LIMITS.nodes - 1);
    expect(budget.nodes).toBe(SCHEMA_LIMITS.nodes);
    expectPastBudget(
      thrown(() => toGeminiSchema(flat(SCHEMA_LIMITS.nodes), { param: "p", ordering: false })),
      "p",
      "nodes",
    );
    const optional = { type: "object", properties: Object.fromEntries(Array.from({ length: SCHEMA_LIMITS.nodes - 1 }, (_, i) => [`p${i}`, { anyOf: [{ type: "string" }, { type: "null" }] }])) };
    expect(toGeminiSchema(optional, { param: "p", ordering: false }).properties!.p0).toEqual({ type: "STRING", nullable: true });
  });

  it("is one budget for all the schemas of a request: two tools at 60% of it each, the second is refused", () => {
    const sixty = flat(0.6 * SCHEMA_LIMITS.nodes - 1);
    // Each alone converts.
    expect(openAIToGemini(body({ tools: [tool("a", sixty)] }), "gemini-2.5-flash").tools![0]!.functionDeclarations).toHaveLength(1);
    expect(openAIToGemini(body({ tools: [tool("b", sixty)] }), "gemini-2.5-flash").tools![0]!.functionDeclarations).toHaveLength(1);
    expectPastBudget(
      thrown(() => openAIToGemini(body({ tools: [tool("a", sixty), tool("b", sixty)] }), "gemini-2.5-flash")),
      "tools[1].function.parameters",
      "nodes",
    );
    // The response format shares it with the tools.
    expectPastBudget(
      thrown(() => openAIToGemini(body({ tools: [tool("a", sixty)], response_format: answer(sixty) }), "gemini-2.5-flash")),
      "response_format.json_schema.schema",
      "nodes",
    );
    // A budget is per request: the next request has a whole one.
    expect(() => openAIToGemini(body({ tools: [tool("a", sixty)], response_format: answer(flat(10)) }), "gemini-2.5-flash")).not.toThrow();
  });

  it("converts a large real schema as before: 200 properties over a few shared definitions", () => {
    const $defs = {
      Address: {
        type: "object",
        description: "A postal address",
        properties: { street: { type: "string" }, city: { type: "string" }, country: { type: "string", enum: ["FR", "DE", "US"] } },
        required: ["street", "city", "country"],
        additionalProperties: false,
      },
      Money: { type: "object", properties: { amount: { type: "number", format: "double" }, currency: { type: "string", pattern: "^[A-Z]{3}$" } }, required: ["amount", "currency"] },
      Tag: { type: "string", minLength: 1, maxLength: 32 },
      Line: { allOf: [{ $ref: "#/$defs/Money" }, { type: "object", properties: { sku: { type: "string" } }, required: ["sku"] }] },
    };
    const property = (i: number) =>
      [
        { $ref: "#/$defs/Address", description: `address ${i}` },
        { anyOf: [{ $ref: "#/$defs/Money" }, { type: "null" }] },
        { type: "array", items: { $ref: "#/$defs/Tag" }, maxItems: 10 },
        { type: ["integer", "null"], minimum: 0, default: i },
        { type: "array", items: { $ref: "#/$defs/Line" } },
      ][i % 5]!;
    const names = Array.from({ length: 200 }, (_, i) => `field_${i}`);
    const schema = { type: "object", $defs, properties: Object.fromEntries(names.map((k, i) => [k, property(i)])), required: names.filter((_, i) => i % 2 === 0) };

    const address = (i: number) => ({
      type: "OBJECT",
      description: `address ${i}`,
      properties: { street: { type: "STRING" }, city: { type: "STRING" }, country: { type: "STRING", enum: ["FR", "DE", "US"], format: "enum" } },
      propertyOrdering: ["street", "city", "country"],
      required: ["street", "city", "country"],
    });
    const money = {
      type: "OBJECT",
      properties: { amount: { type: "NUMBER", format: "double" }, currency: { type: "STRING", pattern: "^[A-Z]{3}$" } },
      propertyOrdering: ["amount", "currency"],
      required: ["amount", "currency"],
    };
    const line = {
      type: "OBJECT",
      properties: { ...money.properties, sku: { type: "STRING" } },
      required: ["amount", "currency", "sku"],
      propertyOrdering: ["amount", "currency", "sku"],
    };
    const expected = (i: number) =>
      [
        address(i),
        { ...money, nullable: true },
        { type: "ARRAY", items: { type: "STRING", minLength: 1, maxLength: 32 }, maxItems: 10 },
        { type: "INTEGER", nullable: true, minimum: 0, default: i },
        { type: "ARRAY", items: line },
      ][i % 5];

    const g = openAIToGemini(body({ response_format: answer(schema), tools: [tool("t", schema)] }), "gemini-2.5-flash");
    expect(g.generationConfig!.responseSchema).toEqual({
      type: "OBJECT",
      properties: Object.fromEntries(names.map((k, i) => [k, expected(i)])),
      propertyOrdering: names,
      required: schema.required,
    });
    const unordered = (s: unknown): unknown =>
      Array.isArray(s)
        ? s.map(unordered)
        : s && typeof s === "object"
          ? Object.fromEntries(
              Object.entries(s)
                .filter(([k]) => k !== "propertyOrdering")
                .map(([k, v]) => [k, unordered(v)]),
            )
          : s;
    expect(g.tools![0]!.functionDeclarations![0]!.parameters).toEqual(unordered(g.generationConfig!.responseSchema));

    // Well within the budget: both schemas together.
    const budget = schemaBudget();
    toGeminiSchema(schema, { param: "p", ordering: true, budget });
    expect(budget.nodes).toBeLessThan(SCHEMA_LIMITS.nodes / 10);
    expect(budget.text).toBeLessThan(SCHEMA_LIMITS.text / 10);
  });

  it("still refuses a recursive schema, however often its definitions are used before", () => {
    const $defs = { Leaf: { type: "string" }, Node: { type: "object", properties: { leaf: { $ref: "#/$defs/Leaf" }, next: { $ref: "#/$defs/Node" } } } };
    const schema = { type: "object", $defs, properties: { a: { $ref: "#/$defs/Leaf" }, b: { $ref: "#/$defs/Leaf" }, c: { $ref: "#/$defs/Node" } } };
    const e = thrown(() => toGeminiSchema(schema, { param: "p", ordering: false }));
    expect(e.context.param).toBe("p");
    expect(e.message).toContain("the schema is recursive ('#/$defs/Node')");
  });

  it("refuses a schema nested deeper than the depth limit with a 400 (not a stack overflow), and takes one at the limit", () => {
    const nested = (levels: number) => {
      let node: Record<string, unknown> = { type: "string" };
      for (let i = 0; i < levels; i++) node = { type: "object", properties: { x: node } };
      return node;
    };
    expect(() => toGeminiSchema(nested(SCHEMA_LIMITS.depth - 1), { param: "p", ordering: false })).not.toThrow();
    for (const levels of [SCHEMA_LIMITS.depth, 5_000]) {
      const e = thrown(() => toGeminiSchema(nested(levels), { param: "p", ordering: false }));
      expect(e.code).toBe("invalid_request");
      expect(e.message).toContain(`nests deeper than ${SCHEMA_LIMITS.depth} levels`);
    }
  });

  it("pays for the arrays each use scans: a 100,000-value numeric enum used 1,000 times through references with keywords beside them is refused", () => {
    // Each use is a fresh node (the description beside the reference), and its enum was scanned
    // every time without spending anything: seconds of work from a few hundred kilobytes.
    const E = { type: "integer", enum: Array.from({ length: 100_000 }, (_, i) => i) };
    const properties = Object.fromEntries(Array.from({ length: 1_000 }, (_, i) => [`p${i}`, { $ref: "#/$defs/E", description: "x" }]));
    expectPastBudget(
      thrown(() => toGeminiSchema({ type: "object", properties, $defs: { E } }, { param: "p", ordering: false })),
      "p",
      "text",
    );
  });
});
