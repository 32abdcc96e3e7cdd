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
