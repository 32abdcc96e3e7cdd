/**
 * The keywords of a JSON Schema the fakes read to answer structured-output requests (OpenAI's
 * `response_format` / `text.format`, a forced function tool, Anthropic's forced `tool_use`).
 * Other keywords are ignored; a boolean schema is `true` (anything) or `false` (nothing).
 */
export interface JsonSchemaObject {
  $ref?: string;
  $defs?: Record<string, JsonSchema>;
  definitions?: Record<string, JsonSchema>;
  type?: string | string[];
  const?: unknown;
  enum?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema;
  minProperties?: number;
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  additionalItems?: JsonSchema;
  minItems?: number;
  uniqueItems?: boolean;
  minimum?: number;
  maximum?: number;
  /** A number (draft 6 and later), or a flag making `minimum` exclusive (draft 4). */
  exclusiveMinimum?: number | boolean;
  exclusiveMaximum?: number | boolean;
  multipleOf?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: string;
}

export type JsonSchema = boolean | JsonSchemaObject;

export interface InstanceOptions {
  /**
   * Seeds the answer so a test can see what was asked: strings are this text, numbers its word
   * count, wherever the schema allows them (default "").
   */
  text?: string;
  /** Every declared property, not only the required ones (OpenAI's strict mode). */
  strict?: boolean;
}

/**
 * Values each common `format` accepts, best first: the first one a sibling `pattern` also matches
 * is used (zod writes a pattern beside the format, and its time has no zone where ajv-formats wants one).
 */
const FORMATS: Record<string, string[]> = {
  "date-time": ["1970-01-01T00:00:00Z"],
  date: ["1970-01-01"],
  time: ["00:00:00Z", "00:00:00"],
  duration: ["PT0S", "P0D"],
  email: ["user@example.com"],
  "idn-email": ["user@example.com"],
  hostname: ["example.com"],
  "idn-hostname": ["example.com"],
  ipv4: ["127.0.0.1"],
  ipv6: ["::1"],
  uri: ["https://example.com/"],
  "uri-reference": ["https://example.com/"],
  iri: ["https://example.com/"],
  "iri-reference": ["https://example.com/"],
  url: ["https://example.com/"],
  "uri-template": ["https://example.com/"],
  uuid: ["00000000-0000-4000-8000-000000000000"],
  "json-pointer": [""],
  "relative-json-pointer": ["0"],
  regex: [".*"],
  byte: [""],
  base64: [""],
};

/** Deeper than this, a recursive schema ($ref to itself through required properties) answers null. */
const MAX_DEPTH = 32;

/**
 * The smallest value a JSON Schema allows: an object with its required properties (every property
 * when strict), arrays of `minItems` items, the first enum value or branch of anyOf/oneOf, `$ref`
 * followed into `$defs`/`definitions`, numbers and string lengths within their bounds, a value of
 * each common string format. Strings and numbers come from `text` when they may, so an echo-style
 * fake still shows what was asked. A `pattern` is met only when one of a few plain candidates
 * (or a format's value) matches it.
 */
export function minimalInstance(schema: unknown, opts: InstanceOptions = {}): unknown {
  const root = asSchema(schema);
  return instance(root, root, { text: opts.text ?? "", strict: opts.strict === true }, 0);
}

interface Walk {
  text: string;
  strict: boolean;
}

function asSchema(s: unknown): JsonSchema {
  if (typeof s === "boolean") return s;
  return s !== null && typeof s === "object" && !Array.isArray(s) ? (s as JsonSchemaObject) : true;
}

function instance(schema: JsonSchema, root: JsonSchema, w: Walk, depth: number): unknown {
  if (schema === false || depth > MAX_DEPTH) return null;
  const s: JsonSchemaObject = schema === true ? {} : schema;
  const next = (sub: JsonSchema | undefined, text = w.text) => instance(sub ?? true, root, { ...w, text }, depth + 1);
  if (typeof s.$ref === "string") {
    const { $ref, ...siblings } = s;
    return next(merge(asSchema(resolve(root, $ref)), siblings));
  }
  if (s.allOf?.length) {
    const { allOf, ...rest } = s;
    return next(allOf.reduce<JsonSchema>((acc, part) => merge(acc, deref(root, asSchema(part))), rest));
  }
  if ("const" in s) return s.const;
  if (s.enum?.length) return s.enum[0];
  const branches = s.anyOf ?? s.oneOf;
  if (branches?.length) {
    const { anyOf: _a, oneOf: _o, ...rest } = s;
    return next(merge(rest, asSchema(branches[0])));
  }
  switch (typeOf(s)) {
    case "null":
      return null;
    case "boolean":
      return true;
    case "integer":
      return numberIn(s, wordCount(w.text), true);
    case "number":
      return numberIn(s, wordCount(w.text), false);
    case "object":
      return objectFor(s, w, next);
    case "array":
      return arrayFor(s, w, next);
    default:
      return stringFor(s, w.text);
  }
}

/** The declared type (the first that is not null), else the one the keywords imply, else string. */
/** The schema's type; Gemini's schemas spell types in upper case (`STRING`, `OBJECT` …). */
function typeOf(s: JsonSchemaObject): string {
  if (typeof s.type === "string") return s.type.toLowerCase();
  if (Array.isArray(s.type)) return (s.type.find((t) => t !== "null") ?? "null").toLowerCase();
  if (s.properties || s.required || s.additionalProperties !== undefined || s.minProperties !== undefined) return "object";
  if (s.items !== undefined || s.prefixItems || s.minItems !== undefined) return "array";
  if ([s.minimum, s.maximum, s.exclusiveMinimum, s.exclusiveMaximum, s.multipleOf].some((k) => typeof k === "number")) return "number";
  return "string";
}

/** Two schemas a value must both satisfy, as one (properties and required lists combined). */
function merge(a: JsonSchema, b: JsonSchema): JsonSchema {
  if (a === false || b === false) return false;
  if (a === true) return b;
  if (b === true) return a;
  const out: JsonSchemaObject = { ...a, ...b };
  if (a.properties || b.properties) out.properties = { ...a.properties, ...b.properties };
  if (a.required || b.required) out.required = [...new Set([...(a.required ?? []), ...(b.required ?? [])])];
  return out;
}

/** A schema with its `$ref` chain followed (siblings of each `$ref` kept). */
function deref(root: JsonSchema, s: JsonSchema): JsonSchema {
  for (let i = 0; typeof s === "object" && typeof s.$ref === "string" && i < MAX_DEPTH; i++) {
    const { $ref, ...siblings } = s;
    s = merge(asSchema(resolve(root, $ref)), siblings);
  }
  return s;
}

/** A local reference (`#`, `#/$defs/x`, `#/definitions/x`, any JSON pointer into the root); anything else is unconstrained. */
function resolve(root: JsonSchema, ref: string): unknown {
  if (!ref.startsWith("#")) return true;
  let node: unknown = root;
  for (const raw of ref.slice(1).split("/").slice(1)) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object") return true;
    node = (node as Record<string, unknown>)[key];
  }
  return node ?? true;
}

function wordCount(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

function objectFor(s: JsonSchemaObject, w: Walk, next: (sub: JsonSchema | undefined) => unknown): Record<string, unknown> {
  const props = s.properties ?? {};
  const extra = s.additionalProperties === false ? undefined : s.additionalProperties;
  const keys = new Set(w.strict ? [...(s.required ?? []), ...Object.keys(props)] : (s.required ?? []));
  for (const k of Object.keys(props)) if (keys.size < (s.minProperties ?? 0)) keys.add(k);
  for (let i = 0; keys.size < (s.minProperties ?? 0) && s.additionalProperties !== false; i++) keys.add(`key${i}`);
  return Object.fromEntries([...keys].map((k) => [k, next(Object.hasOwn(props, k) ? props[k] : extra)]));
}

function arrayFor(s: JsonSchemaObject, w: Walk, next: (sub: JsonSchema | undefined, text?: string) => unknown): unknown[] {
  const prefix = s.prefixItems ?? (Array.isArray(s.items) ? s.items : []);
  const rest = Array.isArray(s.items) ? s.additionalItems : s.items;
  // Unique items differ in their seed: one more word each (so strings and numbers differ).
  const seed = (i: number) => (s.uniqueItems && i > 0 ? `${w.text}${" x".repeat(i)}` : w.text);
  return Array.from({ length: s.minItems ?? 0 }, (_, i) => next(i < prefix.length ? prefix[i] : rest, seed(i)));
}

/** `preferred` moved into the bounds and onto the multipleOf grid. */
function numberIn(s: JsonSchemaObject, preferred: number, integer: boolean): number {
  let lo = typeof s.minimum === "number" ? s.minimum : -Infinity;
  let hi = typeof s.maximum === "number" ? s.maximum : Infinity;
  let loOpen = s.exclusiveMinimum === true;
  let hiOpen = s.exclusiveMaximum === true;
  if (typeof s.exclusiveMinimum === "number" && s.exclusiveMinimum >= lo) [lo, loOpen] = [s.exclusiveMinimum, true];
  if (typeof s.exclusiveMaximum === "number" && s.exclusiveMaximum <= hi) [hi, hiOpen] = [s.exclusiveMaximum, true];
  const step = typeof s.multipleOf === "number" && s.multipleOf > 0 && (!integer || Number.isInteger(s.multipleOf)) ? s.multipleOf : integer ? 1 : undefined;
  let v = Math.min(Math.max(preferred, lo), hi);
  if (step !== undefined) {
    v = Math.ceil(v / step) * step;
    if (v > hi) v = Math.floor(hi / step) * step;
  }
  if (loOpen && v <= lo) v = step !== undefined ? (Math.floor(lo / step) + 1) * step : hi < Infinity ? (lo + hi) / 2 : lo + 1;
  if (hiOpen && v >= hi) v = step !== undefined ? (Math.ceil(hi / step) - 1) * step : lo > -Infinity ? (lo + hi) / 2 : hi - 1;
  return v;
}

function stringFor(s: JsonSchemaObject, text: string): string {
  const formatted = s.format !== undefined && Object.hasOwn(FORMATS, s.format) ? FORMATS[s.format]! : [];
  // A pattern without a format is often one of them written out (zod's time, date, uuid …).
  const candidates = [...formatted, ...(formatted.length ? [] : [text]), "", "a", "A", "0", "a0", "x".repeat(s.minLength ?? 1), ...Object.values(FORMATS).flat()];
  const v = s.pattern === undefined ? candidates[0]! : (candidates.find((c) => matches(s.pattern!, c)) ?? candidates[0]!);
  const chars = [...v];
  if (s.maxLength !== undefined && chars.length > s.maxLength) return chars.slice(0, s.maxLength).join("");
  if (s.minLength !== undefined && chars.length < s.minLength) return v + "x".repeat(s.minLength - chars.length);
  return v;
}

function matches(pattern: string, value: string): boolean {
  try {
    return new RegExp(pattern, "u").test(value);
  } catch {
    return true;
  }
}
