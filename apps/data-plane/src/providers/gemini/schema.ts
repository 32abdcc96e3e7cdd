import type { GeminiSchema } from "./wire.js";
import { invalidParam } from "@gateway/errors";
import { isObject, type Json } from "../types.js";

/**
 * JSON Schema (what OpenAI's `parameters` and `response_format.json_schema.schema` carry) → the
 * OpenAPI 3.0 subset Gemini's `Schema` takes. Gemini refuses what it does not know rather than
 * ignoring it, so everything outside the subset is left out: `additionalProperties`, `$schema`,
 * `$id`, `strict`, `examples`, `not`, `multipleOf` … Local `$ref`s (`#/$defs/…`,
 * `#/definitions/…`) are inlined; a recursive one has no equivalent and is a 400 naming `param`.
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

export interface SchemaOptions {
  /** Name of the field for errors (`tools[0].function.parameters`). */
  param: string;
  /** Adds `propertyOrdering` (schema order): for answers, which Gemini otherwise writes in alphabetical order. */
  ordering: boolean;
}

export function toGeminiSchema(schema: unknown, o: SchemaOptions): GeminiSchema {
  const root = isObject(schema) ? schema : {};
  const bad = (message: string) => invalidParam(o.param, `'${o.param}': ${message}`);

  const resolve = (ref: string): Json => {
    const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(ref);
    const defs = m ? root[m[1]!] : undefined;
    const target = m && isObject(defs) ? defs[decodeURIComponent(m[2]!)] : undefined;
    if (!isObject(target)) throw bad(`the reference '${ref}' is not a local definition ($defs or definitions) of this schema.`);
    return target;
  };

  const convert = (node: unknown, refs: readonly string[]): GeminiSchema => {
    if (!isObject(node)) return {};
    if (typeof node.$ref === "string") {
      if (refs.includes(node.$ref)) throw bad(`the schema is recursive ('${node.$ref}'), which Gemini's schemas cannot express.`);
      // Keywords beside a $ref (a description) apply too.
      const { $ref, ...beside } = node;
      return convert({ ...resolve($ref), ...beside }, [...refs, $ref]);
    }
    if (Array.isArray(node.allOf)) {
      // A conjunction of object schemas (how generators spell inheritance): their properties together.
      const { allOf, ...rest } = node;
      const merged = merge([convert(rest, refs), ...(allOf as unknown[]).map((s) => convert(s, refs))]);
      const keys = Object.keys(merged.properties ?? {});
      if (o.ordering && keys.length > 1) merged.propertyOrdering = keys;
      return merged;
    }
    const out: GeminiSchema = {};
    const alternatives = (node.anyOf ?? node.oneOf) as unknown;
    if (Array.isArray(alternatives)) {
      // `X | null` (how Optional fields are written) is X, nullable.
      const nonNull = alternatives.filter((s) => !(isObject(s) && s.type === "null"));
      if (nonNull.length < alternatives.length) out.nullable = true;
      if (nonNull.length === 1) Object.assign(out, convert(nonNull[0], refs));
      else if (nonNull.length > 1) out.anyOf = nonNull.map((s) => convert(s, refs));
    }
    let type: unknown = node.type;
    if (Array.isArray(type)) {
      if (type.includes("null")) out.nullable = true;
      const types = type.filter((t) => t !== "null");
      if (types.length > 1) {
        const { type: _type, ...rest } = node;
        out.anyOf = types.map((t) => convert({ ...rest, type: t }, refs));
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
        out.enum = values as string[];
        out.format = "enum";
      }
    }
    if (typeof node.format === "string" && out.format === undefined && out.type && FORMATS[out.type]?.includes(node.format)) out.format = node.format;
    if (typeof node.title === "string") out.title = node.title;
    if (typeof node.description === "string") out.description = node.description;
    if (typeof node.pattern === "string") out.pattern = node.pattern;
    for (const k of COUNTS) if (typeof node[k] === "number") out[k] = node[k];
    if (typeof node.minimum === "number") out.minimum = node.minimum;
    if (typeof node.maximum === "number") out.maximum = node.maximum;
    if (node.default !== undefined) out.default = node.default;
    if (isObject(node.items)) out.items = convert(node.items, refs);
    if (isObject(node.properties)) {
      const props = Object.entries(node.properties);
      out.type ??= "OBJECT";
      out.properties = Object.fromEntries(props.map(([k, v]) => [k, convert(v, refs)]));
      if (o.ordering && props.length > 1) out.propertyOrdering = props.map(([k]) => k);
      // A required name without a property is a 400 at Gemini.
      const required = Array.isArray(node.required) ? node.required.filter((k): k is string => typeof k === "string" && k in out.properties!) : [];
      if (required.length) out.required = required;
    }
    return out;
  };

  return convert(root, []);
}

/** allOf: the parts' properties and required names together (the first part's other keywords win). */
function merge(parts: GeminiSchema[]): GeminiSchema {
  const out: GeminiSchema = {};
  for (const p of parts) {
    const { properties, required, propertyOrdering: _ordering, ...rest } = p;
    for (const [k, v] of Object.entries(rest)) if (out[k as keyof GeminiSchema] === undefined) Object.assign(out, { [k]: v });
    if (properties) out.properties = { ...out.properties, ...properties };
    if (required) out.required = [...new Set([...(out.required ?? []), ...required])];
  }
  return out;
}

/** True for a schema that says nothing beyond "an object": Gemini refuses an OBJECT without properties. */
export function isBareObject(s: GeminiSchema): boolean {
  return (s.type === "OBJECT" || s.type === undefined) && (!s.properties || Object.keys(s.properties).length === 0) && !s.anyOf;
}
