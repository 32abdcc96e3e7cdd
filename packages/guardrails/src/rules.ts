import { LineCounter, parseDocument, isMap, isSeq } from "yaml";
import { z } from "zod";
import { RE2JS } from "re2js";
import { KEY_SCOPES } from "@gateway/proto";

export const PLUGINS = ["pii", "regex", "keywords", "length", "webhook"] as const;
/** The routes a rule can name: every route of the API (ROUTE_TABLE in @gateway/proto), `responses` and `mcp` included. */
export const GUARDRAIL_ROUTES = KEY_SCOPES;
export const PII_TYPES = ["email", "phone", "card", "iban", "ssn", "ip"] as const;
export type PiiType = (typeof PII_TYPES)[number];
export type Plugin = (typeof PLUGINS)[number];
export type Stage = "input" | "output";
export type Outcome = "pass" | "denied" | "masked" | "logged" | "error" | "skipped";

export const MAX_RULES = 50;
export const MAX_ITEMS = 200;
export const MAX_PATTERN = 1_000;

/** A rule as stored and cached: defaults filled, plugin config checked. */
export interface GuardrailRule {
  name?: string;
  plugin: Plugin;
  stage: "input" | "output" | "both";
  /** Routes covered; empty = all. */
  routes: string[];
  action: "deny" | "mask" | "log";
  failure_mode: "open" | "closed";
  /** Output stage on streams: refuse the stream, or check the text window by window. */
  streaming: "refuse" | "window";
  config: Record<string, unknown>;
}

/** A rules document that does not validate; the message names the line and the field. */
export class GuardrailConfigError extends Error {}

const base = {
  name: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, "letters, digits, . _ - (at most 64)")
    .optional(),
  stage: z.enum(["input", "output", "both"]).default("input"),
  routes: z.array(z.enum(GUARDRAIL_ROUTES)).default([]),
  failure_mode: z.enum(["open", "closed"]).default("closed"),
  streaming: z.enum(["refuse", "window"]).default("refuse"),
};
const action3 = z.enum(["deny", "mask", "log"]).default("deny");
const action2 = z.enum(["deny", "log"]).default("deny");
const items = (what: string, max: number) =>
  z
    .array(z.string().min(1, `empty ${what}`).max(max, `a ${what} is at most ${max} characters`))
    .min(1)
    .max(MAX_ITEMS);

const Rule = z.discriminatedUnion("plugin", [
  z.strictObject({
    ...base,
    plugin: z.literal("pii"),
    action: action3,
    config: z
      .strictObject({
        types: z
          .array(z.enum(PII_TYPES))
          .min(1)
          .default([...PII_TYPES]),
      })
      .default({ types: [...PII_TYPES] }),
  }),
  z.strictObject({ ...base, plugin: z.literal("regex"), action: action3, config: z.strictObject({ patterns: items("pattern", MAX_PATTERN) }) }),
  z.strictObject({ ...base, plugin: z.literal("keywords"), action: action3, config: z.strictObject({ words: items("word", 200), case_sensitive: z.boolean().default(false) }) }),
  z.strictObject({
    ...base,
    plugin: z.literal("length"),
    action: action2,
    config: z
      .strictObject({ max_chars: z.number().int().positive().optional(), max_tokens: z.number().int().positive().optional() })
      .refine((c) => c.max_chars !== undefined || c.max_tokens !== undefined, "set max_chars or max_tokens"),
  }),
  z.strictObject({
    ...base,
    plugin: z.literal("webhook"),
    action: action2,
    config: z.strictObject({
      url: z
        .string()
        .url()
        .refine((u) => /^https?:\/\//.test(u), "an http(s) URL"),
      timeout_ms: z.number().int().min(1).max(10_000).default(1_000),
      headers: z.record(z.string(), z.string()).default({}),
    }),
  }),
]);

const Doc = z.strictObject({ rules: z.array(z.unknown()).max(MAX_RULES, `at most ${MAX_RULES} rules`).default([]) });

function pathText(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(document)";
}

/**
 * Parses and validates a rules document (YAML; JSON is YAML too). Errors name the line of the bad
 * field and its path: `line 7: rules[1].action: Invalid option: expected one of "deny"|"mask"|"log"`.
 */
export function parseRulesDocument(text: string): GuardrailRule[] {
  if (!text.trim()) return [];
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  if (doc.errors.length) {
    const e = doc.errors[0]!;
    const line = e.linePos?.[0]?.line ?? lines.linePos(e.pos[0]).line;
    throw new GuardrailConfigError(`line ${line}: not valid YAML: ${e.message.split("\n")[0]}`);
  }
  const lineOf = (path: readonly PropertyKey[]): string => {
    for (let n = path.length; n >= 0; n--) {
      const node = doc.getIn(path.slice(0, n) as unknown[], true) as { range?: [number, number, number] } | undefined;
      if (node && typeof node === "object" && node.range) return `line ${lines.linePos(node.range[0]).line}: `;
      // A key that is present but whose value is not a node: find the pair in the parent map.
      const parent = doc.getIn(path.slice(0, Math.max(0, n - 1)) as unknown[], true);
      if (n > 0 && isMap(parent)) {
        const pair = parent.items.find((it) => (it.key as { value?: unknown })?.value === path[n - 1]);
        const r = (pair?.key as { range?: [number, number, number] } | undefined)?.range;
        if (r) return `line ${lines.linePos(r[0]).line}: `;
      }
      if (n > 0 && isSeq(parent)) continue;
    }
    return "";
  };
  const raw = doc.toJS() as unknown;
  const top = Doc.safeParse(raw ?? {});
  if (!top.success) {
    const i = top.error.issues[0]!;
    throw new GuardrailConfigError(`${lineOf(i.path)}${pathText(i.path)}: ${i.message}`);
  }
  const out: GuardrailRule[] = [];
  const names = new Set<string>();
  for (const [idx, r] of top.data.rules.entries()) {
    const parsed = Rule.safeParse(r);
    if (!parsed.success) {
      const i = parsed.error.issues[0]!;
      const path = ["rules", idx, ...i.path];
      throw new GuardrailConfigError(`${lineOf(path)}${pathText(path)}: ${i.message}`);
    }
    const rule = parsed.data as GuardrailRule;
    const at = (field: string) => `${lineOf(["rules", idx, field])}rules[${idx}].${field}`;
    if (rule.name) {
      if (names.has(rule.name)) throw new GuardrailConfigError(`${at("name")}: duplicate rule name '${rule.name}'`);
      names.add(rule.name);
    }
    if (rule.streaming === "window") {
      if (rule.stage === "input") throw new GuardrailConfigError(`${at("streaming")}: window mode applies to output rules`);
      if (rule.action === "mask") throw new GuardrailConfigError(`${at("streaming")}: window mode cannot mask text already sent; use deny or log`);
      if (rule.plugin === "webhook") throw new GuardrailConfigError(`${at("streaming")}: a webhook cannot run window by window`);
    }
    if (rule.plugin === "regex") {
      for (const [j, p] of (rule.config.patterns as string[]).entries()) {
        try {
          RE2JS.compile(p);
        } catch (err) {
          const path = ["rules", idx, "config", "patterns", j];
          throw new GuardrailConfigError(`${lineOf(path)}${pathText(path)}: invalid pattern ${JSON.stringify(p)}: ${(err as Error).message}`);
        }
      }
    }
    out.push(rule);
  }
  return out;
}
