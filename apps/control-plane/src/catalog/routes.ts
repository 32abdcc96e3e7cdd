/** Route kinds a model can serve and a key can be scoped to. */
export const ROUTES = ["chat", "messages", "responses", "embeddings", "images", "video"] as const;
export type Route = (typeof ROUTES)[number];

export function isRoute(v: string): v is Route {
  return (ROUTES as readonly string[]).includes(v);
}
