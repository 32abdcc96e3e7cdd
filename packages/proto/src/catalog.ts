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

/**
 * Every route of the gateway's API, once: its name is what a key is scoped to (`routes`), what a
 * guardrail rule names (`routes`), and, for the routes models serve (`model`), what a catalog model
 * lists; `bodyLimit` is the route's part of DATA_PLANE_BODY_LIMIT_<NAME>_BYTES (`fallback`: the
 * route whose limit it takes when its own is unset, before DATA_PLANE_BODY_LIMIT_BYTES). The key
 * scopes, the catalog's routes, the guardrail rules' routes and the data-plane's body limits are
 * all read from here.
 */
export const ROUTE_TABLE = {
  chat: { model: true, bodyLimit: "CHAT" },
  messages: { model: true, bodyLimit: "MESSAGES" },
  // OpenAI's Responses API: chat models (catalog/visibility.ts modelRoute), chat's body limit unless set.
  responses: { model: true, bodyLimit: "RESPONSES", fallback: "chat" },
  embeddings: { model: true, bodyLimit: "EMBEDDINGS" },
  images: { model: true, bodyLimit: "IMAGES" },
  video: { model: true, bodyLimit: "VIDEO" },
  // The MCP gateway (docs/mcp.md): tools, not models; chat's body limit unless set.
  mcp: { model: false, bodyLimit: "MCP", fallback: "chat" },
} as const satisfies Record<string, { model: boolean; bodyLimit: string; fallback?: string }>;

/** Every route's name (ROUTE_TABLE). */
export type ApiRoute = keyof typeof ROUTE_TABLE;
type ModelRouteOf<R extends ApiRoute> = R extends ApiRoute ? ((typeof ROUTE_TABLE)[R]["model"] extends true ? R : never) : never;

/** Route kinds a model can serve (ROUTE_TABLE's `model` routes). */
export const ROUTES = (Object.keys(ROUTE_TABLE) as ApiRoute[]).filter((r) => ROUTE_TABLE[r].model) as ModelRouteOf<ApiRoute>[];
export type Route = ModelRouteOf<ApiRoute>;

export function isRoute(v: string): v is Route {
  return (ROUTES as readonly string[]).includes(v);
}

/** What a key can be scoped to, and a guardrail rule can name: every route (ROUTE_TABLE). */
export const KEY_SCOPES = Object.keys(ROUTE_TABLE) as [ApiRoute, ...ApiRoute[]];
export type KeyScope = ApiRoute;

export function isKeyScope(v: string): v is KeyScope {
  return (KEY_SCOPES as readonly string[]).includes(v);
}

/**
 * The largest MCP tool definition the gateway pins and relays (docs/mcp.md, "Pinned definitions"):
 * its canonical JSON, bytes. A larger one is never served: its tool is not listed and not called.
 */
export const MCP_MAX_DEFINITION_BYTES = 64 * 1024;

/**
 * What is pinned of an MCP tool's definition (docs/mcp.md): every field of the tool object but its
 * name (the pin's key) — title, description, schemas, annotations, icons, `_meta`, and any field a
 * later protocol version adds — as canonical JSON (keys sorted, undefined left out), and its
 * SHA-256. The data-plane and the control-plane compute it alike, and the gateway relays exactly
 * this object (with the name), so nothing a caller sees is outside the digest.
 */
export function mcpToolDefinition(tool: Record<string, unknown>): { json: string; digest: string } {
  const { name: _name, ...definition } = tool;
  const json = canonicalJson(definition);
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
