import { createHash } from "node:crypto";
/**
 * The catalog's closed sets, shared by the control-plane (which validates catalog documents and key
 * scopes against them) and the data-plane (which narrows the catalog's strings to them once, when it
 * loads). The proto carries them as strings: a kind or route a service does not know is refused on
 * apply and left out on load.
 */

/** Every provider kind the catalog may name; the data-plane's adapter switch over it is exhaustive. */
export const PROVIDER_KINDS = ["openai", "anthropic", "openai-compatible", "fal", "gemini"] as const;
export type ProviderKind = (typeof PROVIDER_KINDS)[number];

export function isProviderKind(v: string): v is ProviderKind {
  return (PROVIDER_KINDS as readonly string[]).includes(v);
}

/** Route kinds a model can serve and a key can be scoped to. */
export const ROUTES = ["chat", "messages", "responses", "embeddings", "images", "video"] as const;
export type Route = (typeof ROUTES)[number];

export function isRoute(v: string): v is Route {
  return (ROUTES as readonly string[]).includes(v);
}

/** What a key can be scoped to: the model routes and `mcp`, the MCP gateway (docs/mcp.md). */
export const KEY_SCOPES = [...ROUTES, "mcp"] as const;
export type KeyScope = (typeof KEY_SCOPES)[number];

export function isKeyScope(v: string): v is KeyScope {
  return (KEY_SCOPES as readonly string[]).includes(v);
}

/**
 * What is pinned of an MCP tool's definition (docs/mcp.md): what steers a model — title,
 * description, input and output schemas, annotations — as canonical JSON (keys sorted), and its
 * SHA-256. The data-plane and the control-plane compute it alike.
 */
export function mcpToolDefinition(tool: Record<string, unknown>): { json: string; digest: string } {
  const pick = { title: tool.title, description: tool.description, inputSchema: tool.inputSchema, outputSchema: tool.outputSchema, annotations: tool.annotations };
  const json = canonicalJson(pick);
  return { json, digest: createHash("sha256").update(json).digest("hex") };
}

function canonicalJson(v: unknown): string {
  return JSON.stringify(v, (_k, x: unknown) =>
    x && typeof x === "object" && !Array.isArray(x)
      ? Object.fromEntries(
          Object.entries(x as Record<string, unknown>)
            .filter(([, y]) => y !== undefined)
            .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
        )
      : x,
  );
}
