import { createHash } from "node:crypto";
import { isObject, type Json } from "../providers/types.js";

/**
 * The Responses API's namespace tools (`{type: "namespace", name, tools: [function tools]}`, how
 * Codex groups its multi-agent tools) for providers that know only flat function tools: each inner
 * function becomes a function named `<namespace>__<name>`, and a call of that name comes back as a
 * `function_call` with `namespace` and the inner `name`, as OpenAI answers it. Names keep to the
 * characters and the 64-character limit every provider accepts; a longer one is cut and ends in a
 * digest, so it stays unique.
 */

/** The name a namespaced function goes by where namespaces do not exist. */
export function flatName(namespace: string, name: string): string {
  const flat = `${namespace}__${name}`.replace(/[^A-Za-z0-9_-]/g, "_");
  if (flat.length <= 64) return flat;
  const digest = createHash("sha256").update(`${namespace}\u0000${name}`).digest("hex").slice(0, 12);
  return `${flat.slice(0, 51)}_${digest}`;
}

/** A call's name and namespace as the client declared them. */
export interface Declared {
  name: string;
  namespace?: string;
}

/** Flattened name → the namespace and name the client knows, for the request's namespace tools. */
export type ToolNames = ReadonlyMap<string, Declared>;

/** The flattened names of a Responses request's namespace tools (empty when it has none). */
export function toolNames(tools: unknown): ToolNames {
  const names = new Map<string, Declared>();
  if (!Array.isArray(tools)) return names;
  for (const t of tools) {
    if (!isObject(t) || t.type !== "namespace" || typeof t.name !== "string" || !Array.isArray(t.tools)) continue;
    for (const inner of t.tools) if (isObject(inner) && typeof inner.name === "string") names.set(flatName(t.name, inner.name), { name: inner.name, namespace: t.name });
  }
  return names;
}

/** A provider's call name as the client declared it: the namespace and inner name for a flattened one. */
export const declared = (names: ToolNames | undefined, name: string): Declared => names?.get(name) ?? { name };

/**
 * The function tools of a namespace tool, flattened (their description says which group they belong
 * to); `at` names the tool in errors.
 */
export function flattenNamespace(tool: Json, at: string, bad: (param: string, message: string) => Error): Json[] {
  if (typeof tool.name !== "string" || !Array.isArray(tool.tools)) throw bad(at, `'${at}': a namespace tool needs 'name' and 'tools'.`);
  const group = typeof tool.description === "string" && tool.description ? ` (${tool.name}: ${tool.description})` : ` (${tool.name})`;
  return tool.tools.map((inner, j) => {
    if (!isObject(inner) || inner.type !== "function" || typeof inner.name !== "string") {
      throw bad(`${at}.tools[${j}]`, `'${at}.tools[${j}]': a namespace holds function tools ({type: "function", name, parameters}).`);
    }
    const description = typeof inner.description === "string" ? inner.description + group : group.trim();
    return { ...inner, name: flatName(tool.name as string, inner.name), description };
  });
}
