import type { GeminiSchema } from "./wire.js";
import { invalidParam } from "@gateway/errors";
import { isObject, type Json } from "../types.js";

/**
 * JSON Schema (what OpenAI's `parameters` and `response_format.json_schema.schema` carry) → the
 * OpenAPI 3.0 subset Gemini's `Schema` takes. Gemini refuses what it does not know rather than
 * ignoring it, so everything outside the subset is left out: `additionalProperties`, `$schema`,
 * `$id`, `strict`, `examples`, `not`, `multipleOf` … Local `$ref`s (`#/$defs/…`,
 * `#/definitions/…`) are inlined, within a budget per request ({@link SCHEMA_LIMITS}); a recursive
 * one has no equivalent. What cannot be converted is a 400 naming `param`.
 */

const TYPES = { string: "STRING", number: "NUMBER", integer: "INTEGER", boolean: "BOOLEAN", array: "ARRAY", object: "OBJECT" } as const;
type JsonType = keyof typeof TYPES;
const isJsonType = (t: unknown): t is JsonType => typeof t === "string" && t in TYPES;

/** The formats Gemini accepts, by type; any other format is left out (it would be a 400). */
const FORMATS: Partial<Record<GeminiSchema["type"] & string, readonly string[]>> = {
  STRING: ["enum", "date-time"],
  NUMBER: ["float", "double"],
  INTEGER: ["int32", "int64"],
};

const COUNTS = ["minItems", "maxItems", "minProperties", "maxProperties", "minLength", "maxLength"] as const;

/** The keywords the conversion reads: all that a `$ref`'s target and the keywords beside it bring to the copy. */
const KEYWORDS = [
  "$ref",
  "allOf",
  "anyOf",
  "oneOf",
  "type",
  "const",
  "enum",
  "format",
  "title",
  "description",
  "pattern",
  ...COUNTS,
  "minimum",
  "maximum",
  "default",
  "items",
  "properties",
  "required",
];

/**
 * What the schemas of one request (every tool's `parameters` and the `response_format` schema
 * together) may add up to once their references are inlined. Gemini's schemas have no `$ref`, so
 * every use of a definition is a copy, and definitions that each use the next one twice expand to
 * 2^levels copies: 19 levels in a 2 KB body were 15 MB sent upstream (against the credit hold of a
 * 2 KB body) after 3 s of the event loop, 24 levels ran out of memory. Spent as the output is
 * made, so a schema is refused as soon as it goes past a limit, never after it was built.
 *
 * - nodes, 10,000: the schemas of the output, every inlined copy included (an object, each of its
 *   properties, an array's items, an alternative; `X | null` is one node, as is an allOf's merge).
 *   OpenAI's structured outputs take at most 5,000 properties in a schema, and 128 tools (OpenAI's
 *   maximum) of 40 nodes each are 5,120; Gemini documents no number, only that it refuses very
 *   large or deeply nested schemas, whose size counts as input tokens.
 * - text, 1 MiB: the characters of the strings copied into the output (property names, titles,
 *   descriptions, patterns, enum values, required names and the property ordering, defaults as
 *   JSON), each with 2 for its quotes as it is sent. OpenAI caps the names and enum values of a
 *   schema at 120,000 characters; the rest is room for descriptions.
 *
 * So however their references multiply, the schemas of a request send at most 1 MiB of text and
 * 10,000 nodes of JSON besides (some 30 bytes each in practice: 8,191 copies of a two-property
 * definition are 240 KB; a few hundred with every numeric keyword). Each object of the request
 * is converted once (a later use of it is the same result, spent again) and a use costs a constant
 * plus what it spends, so the time is linear in the body plus these limits, however often they are
 * checked: the 2 KB body above is refused in under a millisecond.
 */
export const SCHEMA_LIMITS = { nodes: 10_000, text: 1_048_576, depth: 100 } as const;

/** What a request's schemas have spent of {@link SCHEMA_LIMITS} so far: one per request, shared by all of them. */
export interface SchemaBudget {
  nodes: number;
  text: number;
}
export const schemaBudget = (): SchemaBudget => ({ nodes: 0, text: 0 });

export interface SchemaOptions {
  /** Name of the field for errors (`tools[0].function.parameters`). */
  param: string;
  /** Adds `propertyOrdering` (schema order): for answers, which Gemini otherwise writes in alphabetical order. */
  ordering: boolean;
  /** The request's budget, shared by all its schemas (a budget of its own when left out). */
  budget?: SchemaBudget;
}

/** A node converted, and what its output spent: what a later use of the same node spends again. */
interface Converted {
  schema: GeminiSchema;
  nodes: number;
  text: number;
}

const quoted = (s: string) => s.length + 2;
/** 1,048,576 (not toLocaleString: its first call loads the locale data, tens of milliseconds). */
const count = (n: number) => String(n).replace(/\B(?=(\d{3})+$)/g, ",");

export function toGeminiSchema(schema: unknown, o: SchemaOptions): GeminiSchema {
  const root = isObject(schema) ? schema : {};
  const budget = o.budget ?? schemaBudget();
  const bad = (message: string) => invalidParam(o.param, `'${o.param}': ${message}`);
  const past = (what: string) =>
    bad(
      `the schema expands past ${what} once its references ($ref) are inlined (Gemini's schemas have none: every use of a definition is a copy); the limit is for all the schemas of a request together.`,
    );

  const spend = (nodes: number, text: number): void => {
    budget.nodes += nodes;
    budget.text += text;
    if (budget.nodes > SCHEMA_LIMITS.nodes) throw past(`${count(SCHEMA_LIMITS.nodes)} nodes`);
    if (budget.text > SCHEMA_LIMITS.text) throw past(`${count(SCHEMA_LIMITS.text)} characters of names, descriptions and other text`);
  };
  const copy = <T extends string | string[]>(s: T): T => {
    spend(0, typeof s === "string" ? quoted(s) : s.reduce((n, x) => n + quoted(x), 0));
    return s;
  };

  const resolve = (ref: string): Json => {
    const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    const defs = m ? root[m[1]!] : undefined;
    const target = m && isObject(defs) ? defs[decodeURIComponent(m[2]!)] : undefined;
    if (!isObject(target)) throw bad(`the reference '${ref}' is not a local definition ($defs or definitions) of this schema.`);
    return target;
  };

  /**
   * Every node converted, by identity. A node's output does not depend on where it is used: the
   * references being inlined matter only to refuse a recursive schema, and a node whose
   * conversion succeeded reaches no reference that leads back to it. Its uses share the output
   * objects (nothing changes a converted node afterwards; the request is sent as JSON).
   */
  const converted = new Map<Json, Converted>();
  /** The references being inlined, outermost first: one of them again is a recursive schema. */
  const inlining = new Set<string>();

  /** Schemas being converted, outermost first: past SCHEMA_LIMITS.depth a 400 (not a stack overflow). */
  let depth = 0;
  const convert = (node: unknown): GeminiSchema => {
    if (!isObject(node)) {
      spend(1, 0);
      return {};
    }
    const before = converted.get(node);
    if (before) {
      spend(before.nodes, before.text);
      return before.schema;
    }
    if (depth >= SCHEMA_LIMITS.depth) throw bad(`the schema nests deeper than ${SCHEMA_LIMITS.depth} levels (references inlined).`);
    const nodes = budget.nodes;
    const text = budget.text;
    depth++;
    let schema: GeminiSchema;
    try {
      schema = convertNew(node);
    } finally {
      depth--;
    }
    converted.set(node, { schema, nodes: budget.nodes - nodes, text: budget.text - text });
    return schema;
  };

  const convertNew = (node: Json): GeminiSchema => {
    if (typeof node.$ref === "string") {
      const ref = node.$ref;
      if (inlining.has(ref)) throw bad(`the schema is recursive ('${ref}'), which Gemini's schemas cannot express.`);
      const target = resolve(ref);
      // Keywords beside a $ref (a description) apply too. Only the keywords read are copied, so a
      // use of a definition costs the same whatever else the definition holds.
      const beside = keywords(node, true);
      inlining.add(ref);
      const out = convert(beside ? { ...keywords(target, false), ...beside } : target);
      inlining.delete(ref);
      return out;
    }
    if (Array.isArray(node.allOf)) {
      // A conjunction of object schemas (how generators spell inheritance): their properties together.
      const { allOf, ...rest } = node;
      const parts = [convert(rest), ...(allOf as unknown[]).map((s) => convert(s))];
      // The parts are one node of the output.
      spend(1 - parts.length, 0);
      const merged = merge(parts);
      const keys = Object.keys(merged.properties ?? {});
      if (o.ordering && keys.length > 1) merged.propertyOrdering = copy(keys);
      return merged;
    }
    spend(1, 0);
    const out: GeminiSchema = {};
    const alternatives = (node.anyOf ?? node.oneOf) as unknown;
    // Every array a use of a node scans is paid for by its length (a node used thousands of times
    // through references with keywords beside them is scanned that often): the time stays bounded.
    if (Array.isArray(alternatives)) spend(0, alternatives.length);
    if (Array.isArray(node.type)) spend(0, node.type.length);
    if (Array.isArray(node.enum)) spend(0, node.enum.length);
    if (Array.isArray(node.required)) spend(0, node.required.length);
    if (Array.isArray(alternatives)) {
      // `X | null` (how Optional fields are written) is X, nullable.
      const nonNull = alternatives.filter((s) => !(isObject(s) && s.type === "null"));
      if (nonNull.length < alternatives.length) out.nullable = true;
      if (nonNull.length === 1) {
        // X and this are one node of the output.
        spend(-1, 0);
        Object.assign(out, convert(nonNull[0]));
      } else if (nonNull.length > 1) out.anyOf = nonNull.map((s) => convert(s));
    }
    let type: unknown = node.type;
    if (Array.isArray(type)) {
      if (type.includes("null")) out.nullable = true;
      const types = type.filter((t) => t !== "null");
      if (types.length > 1) {
        const { type: _type, ...rest } = node;
        // One node per type, converted once: a type named again is the same node again (and so is
        // anything but a JSON type, which converts as no type).
        const byType = new Map<JsonType | undefined, Json>();
        out.anyOf = types.map((t) => {
          const key = isJsonType(t) ? t : undefined;
          let alternative = byType.get(key);
          if (!alternative) byType.set(key, (alternative = { ...rest, type: key }));
          return convert(alternative);
        });
        return out;
      }
      type = types[0];
    }
    if (type === "null") out.nullable = true;
    else if (isJsonType(type)) out.type = TYPES[type];
    const values = "const" in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
    // Gemini's enums are strings only; numeric enums and constants are left to the type.
    if (values && values.length > 0 && values.every((v) => typeof v === "string")) {
      out.type ??= "STRING";
      if (out.type === "STRING") {
        out.enum = copy(values as string[]);
        out.format = "enum";
      }
    }
    if (typeof node.format === "string" && out.format === undefined && out.type && FORMATS[out.type]?.includes(node.format)) out.format = node.format;
    if (typeof node.title === "string") out.title = copy(node.title);
    if (typeof node.description === "string") out.description = copy(node.description);
    if (typeof node.pattern === "string") out.pattern = copy(node.pattern);
    for (const k of COUNTS) if (typeof node[k] === "number") out[k] = node[k];
    if (typeof node.minimum === "number") out.minimum = node.minimum;
    if (typeof node.maximum === "number") out.maximum = node.maximum;
    if (node.default !== undefined) {
      spend(0, JSON.stringify(node.default)?.length ?? 0);
      out.default = node.default;
    }
    if (isObject(node.items)) out.items = convert(node.items);
    if (isObject(node.properties)) {
      const props = Object.entries(node.properties);
      out.type ??= "OBJECT";
      out.properties = Object.fromEntries(props.map(([k, v]) => [copy(k), convert(v)]));
      if (o.ordering && props.length > 1) out.propertyOrdering = copy(props.map(([k]) => k));
      // A required name without a property is a 400 at Gemini.
      const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === "string" && k in out.properties!) : [];
      if (required.length) out.required = copy(required);
    }
    return out;
  };

  return convert(root);
}

/** The keywords of `node` the conversion reads (without `$ref` when `beside`), or undefined when it has none. */
function keywords(node: Json, beside: boolean): Json | undefined {
  let out: Json | undefined;
  for (const k of KEYWORDS) if (Object.hasOwn(node, k) && !(beside && k === "$ref")) (out ??= {})[k] = node[k];
  return out;
}

/** allOf: the parts' properties and required names together (the first part's other keywords win). */
function merge(parts: GeminiSchema[]): GeminiSchema {
  const out: GeminiSchema = {};
  const required = new Set<string>();
  for (const p of parts) {
    const { properties, required: names, propertyOrdering: _ordering, ...rest } = p;
    for (const [k, v] of Object.entries(rest)) if (out[k as keyof GeminiSchema] === undefined) Object.assign(out, { [k]: v });
    // Into objects of its own (a part may be a node used elsewhere too), a later part's property replacing an earlier one's.
    if (properties) Object.assign((out.properties ??= {}), properties);
    for (const k of names ?? []) {
      if (required.has(k)) continue;
      required.add(k);
      (out.required ??= []).push(k);
    }
  }
  return out;
}

/** True for a schema that says nothing beyond "an object": Gemini refuses an OBJECT without properties. */
export function isBareObject(s: GeminiSchema): boolean {
  return (s.type === "OBJECT" || s.type === undefined) && (!s.properties || Object.keys(s.properties).length === 0) && !s.anyOf;
}
