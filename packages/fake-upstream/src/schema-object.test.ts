import { Ajv2020 } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { minimalInstance } from "./schema-object.js";

// ajv-formats is CommonJS with its plugin as module.exports.default.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;
const ajv = addFormats(new Ajv2020({ strict: false, allErrors: true }));

/** The instance, after ajv (a full JSON Schema validator, formats included) has accepted it. */
function valid(schema: object, opts?: Parameters<typeof minimalInstance>[1]): unknown {
  const value = minimalInstance(schema, opts);
  const validate = ajv.compile(schema);
  expect(validate(value), JSON.stringify({ value, errors: validate.errors })).toBe(true);
  return value;
}

describe("minimalInstance", () => {
  it("an object has its required properties only, or every property when strict", () => {
    const schema = { type: "object", properties: { name: { type: "string" }, age: { type: "integer" }, nick: { type: "string" } }, required: ["name", "age"], additionalProperties: false };
    expect(valid(schema, { text: "Ada Lovelace" })).toEqual({ name: "Ada Lovelace", age: 2 });
    expect(valid(schema, { text: "Ada Lovelace", strict: true })).toEqual({ name: "Ada Lovelace", age: 2, nick: "Ada Lovelace" });
    expect(valid({ type: "object", properties: { a: { type: "string" } } })).toEqual({});
  });

  it("scalars: null, boolean, enum and const; strings and numbers from the text", () => {
    expect(valid({ type: "null" })).toBeNull();
    expect(valid({ type: "boolean" })).toBe(true);
    expect(valid({ enum: ["red", "green"] })).toBe("red");
    expect(valid({ type: "string", enum: ["b", "a"] })).toBe("b");
    expect(valid({ const: 42 })).toBe(42);
    expect(valid({ type: "string" }, { text: "three little words" })).toBe("three little words");
    expect(valid({ type: "number" }, { text: "three little words" })).toBe(3);
    expect(valid({ type: ["null", "integer"] }, { text: "two words" })).toBe(2);
  });

  it("numbers within minimum, maximum, exclusive bounds and multipleOf; integers are whole", () => {
    expect(valid({ type: "integer", minimum: 10 }, { text: "one" })).toBe(10);
    expect(valid({ type: "integer", maximum: 2 }, { text: "a b c d e" })).toBe(2);
    expect(valid({ type: "integer", exclusiveMinimum: 5 })).toBe(6);
    expect(valid({ type: "integer", exclusiveMaximum: 0 })).toBe(-1);
    expect(valid({ type: "number", exclusiveMinimum: 0, exclusiveMaximum: 1 })).toBe(0.5);
    expect(valid({ type: "number", minimum: 0.25, maximum: 0.75 })).toBe(0.25);
    expect(valid({ type: "integer", minimum: 1, multipleOf: 5 })).toBe(5);
    expect(valid({ type: "integer", minimum: 0.5 })).toBe(1);
  });

  it("strings within minLength and maxLength, of each common format, matching a simple pattern", () => {
    expect(valid({ type: "string", minLength: 5 }, { text: "ab" })).toBe("abxxx");
    expect(valid({ type: "string", maxLength: 3 }, { text: "abcdef" })).toBe("abc");
    for (const format of ["date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uri", "uri-reference", "uuid", "json-pointer", "regex"]) {
      const value = valid({ type: "string", format }, { text: "not formatted" });
      expect(value, format).not.toBe("not formatted");
    }
    expect(valid({ type: "string", pattern: "^[0-9]+$" }, { text: "words" })).toBe("0");
  });

  it("arrays of minItems items, tuples, distinct items when unique", () => {
    expect(valid({ type: "array", items: { type: "string" } })).toEqual([]);
    expect(valid({ type: "array", items: { type: "integer", minimum: 1 }, minItems: 2 })).toEqual([1, 1]);
    expect(valid({ type: "array", items: { type: "string" }, minItems: 3, uniqueItems: true }, { text: "t" })).toEqual(["t", "t x", "t x x"]);
    expect(valid({ type: "array", prefixItems: [{ type: "string" }, { type: "boolean" }], minItems: 2 }, { text: "t" })).toEqual(["t", true]);
  });

  it("anyOf and oneOf take the first branch; allOf combines its parts", () => {
    expect(valid({ anyOf: [{ type: "integer" }, { type: "null" }] }, { text: "a b" })).toBe(2);
    expect(valid({ oneOf: [{ type: "null" }, { type: "string" }] })).toBeNull();
    const all = {
      allOf: [
        { type: "object", properties: { a: { type: "string" } }, required: ["a"] },
        { properties: { b: { type: "integer" } }, required: ["b"] },
      ],
    };
    expect(valid(all, { text: "x" })).toEqual({ a: "x", b: 1 });
  });

  it("follows $ref into $defs and definitions, nested, and stops a recursion through optional properties", () => {
    const schema = {
      type: "object",
      properties: { owner: { $ref: "#/$defs/person" }, pets: { type: "array", items: { $ref: "#/definitions/pet" }, minItems: 1 } },
      required: ["owner", "pets"],
      $defs: { person: { type: "object", properties: { name: { type: "string" }, email: { type: "string", format: "email" }, friend: { $ref: "#/$defs/person" } }, required: ["name", "email"] } },
      definitions: { pet: { type: "object", properties: { kind: { enum: ["cat", "dog"] }, age: { type: "integer", minimum: 0, maximum: 30 } }, required: ["kind", "age"] } },
    };
    expect(valid(schema, { text: "Ada" })).toEqual({ owner: { name: "Ada", email: "user@example.com" }, pets: [{ kind: "cat", age: 1 }] });
    const tree = {
      $ref: "#/$defs/node",
      $defs: { node: { type: "object", properties: { value: { type: "integer" }, children: { type: "array", items: { $ref: "#/$defs/node" } } }, required: ["value", "children"] } },
    };
    expect(valid(tree, { strict: true })).toEqual({ value: 0, children: [] });
  });

  it("an empty schema or true is the text; an object-shaped schema without a type is an object", () => {
    expect(minimalInstance({}, { text: "hi" })).toBe("hi");
    expect(minimalInstance(true, { text: "hi" })).toBe("hi");
    expect(valid({ properties: { a: { type: "boolean" } }, required: ["a"] })).toEqual({ a: true });
  });

  it("satisfies what zod writes for a typical generateObject schema (formats with their patterns, nullable, records)", () => {
    const Recipe = z.object({
      id: z.uuid(),
      title: z.string().min(3).max(40),
      author: z.object({ name: z.string(), email: z.email(), site: z.url().optional() }),
      published: z.iso.datetime(),
      day: z.iso.date(),
      at: z.iso.time(),
      servings: z.number().int().positive().max(12),
      rating: z.number().min(1).max(5),
      tags: z.array(z.string()).min(1),
      difficulty: z.enum(["easy", "hard"]),
      notes: z.string().nullable(),
      kind: z.literal("recipe"),
      steps: z.array(z.object({ text: z.string(), minutes: z.number().nonnegative() })),
      extras: z.record(z.string(), z.number()),
    });
    const schema = z.toJSONSchema(Recipe);
    const value = valid(schema, { text: "pancakes for two" });
    expect(Recipe.parse(value)).toEqual(value);
    expect(value).toMatchObject({ title: "pancakes for two", servings: 3, rating: 3, tags: ["pancakes for two"], difficulty: "easy", notes: "pancakes for two", kind: "recipe" });
  });
});
