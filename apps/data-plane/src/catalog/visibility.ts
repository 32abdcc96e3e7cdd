import type { KeyContext, KeyScope, Model, Route, TrialPolicy } from "@gateway/proto";
import { GatewayError } from "@gateway/errors";
import type { CatalogView } from "./catalog-cache.js";

/** The model routes (ROUTE_TABLE in @gateway/proto; a key can also be scoped to `mcp`: KeyScope). */
export type RouteKind = Route;

/** The catalog route a model must serve for a request route: every chat model serves the Responses API. */
export const modelRoute = (route: RouteKind): RouteKind => (route === "responses" ? "chat" : route);

/**
 * The spec's visibility rule: published ∩ enabled for the org ∩ the key's allowlist ∩ (in trial)
 * the trial allowlist. A route narrows it further to models serving that route.
 */
export function visibleModelIds(key: KeyContext, catalog: CatalogView, trial: TrialPolicy | undefined, route?: RouteKind): string[] {
  return catalog.publishedIds.filter((id) => {
    const m = catalog.models.get(id);
    return m !== undefined && modelVisible(key, m, trial) && (!route || m.routes.includes(modelRoute(route)));
  });
}

interface KeySets {
  enabled: Set<string>;
  allow: Set<string> | undefined;
}
/** Per key context (replaced whole when the key changes), so membership checks are O(1). */
const keySets = new WeakMap<KeyContext, KeySets>();
function setsOf(key: KeyContext): KeySets {
  let s = keySets.get(key);
  if (!s) {
    s = { enabled: new Set(key.org_enabled_models), allow: key.model_allowlist.length > 0 ? new Set(key.model_allowlist) : undefined };
    keySets.set(key, s);
  }
  return s;
}

/** One model's visibility for a key, without walking the catalog (the hot-path check). */
export function modelVisible(key: KeyContext, model: Model, trial: TrialPolicy | undefined): boolean {
  if (model.status !== "published") return false;
  const s = setsOf(key);
  if (!s.enabled.has(model.id)) return false;
  if (s.allow && !s.allow.has(model.id)) return false;
  if (key.org_in_trial && !(trial?.allowed_models ?? []).includes(model.id)) return false;
  return true;
}

/** Whether a key's scope covers a route of the API (ROUTE_TABLE): its routes are empty (all), or name it. */
export function keyAllowsRoute(key: KeyContext, route: KeyScope): boolean {
  return key.routes.length === 0 || key.routes.includes(route);
}

/** A key scoped to other routes may not call `route`: 403. */
export function requireRoute(key: KeyContext, route: RouteKind): void {
  if (!keyAllowsRoute(key, route)) throw new GatewayError("route_not_allowed", `This API key may not call the ${route} route.`, { action: "contact_org_admin" });
}

/**
 * Resolves a requested public model id for a route, or throws the precise catalog/policy error.
 * Order: route scope, existence (404 for unknown or draft: a draft is invisible), visibility
 * (403 with the allowed models), route support (400).
 */
export function resolveModel(key: KeyContext, catalog: CatalogView, trial: TrialPolicy | undefined, route: RouteKind, modelId: string): Model {
  requireRoute(key, route);
  const model = catalog.models.get(modelId);
  if (!model || model.status !== "published") {
    throw new GatewayError("model_not_found", `The model '${modelId}' does not exist or is not available. List models with GET /v1/models.`, { param: "model" });
  }
  if (!modelVisible(key, model, trial)) {
    throw new GatewayError("model_not_allowed", `This API key may not use the model '${modelId}'.`, {
      allowed_models: visibleModelIds(key, catalog, trial, route),
      action: "contact_org_admin",
      param: "model",
    });
  }
  if (!model.routes.includes(modelRoute(route))) {
    throw new GatewayError("model_not_supported_for_route", `The model '${modelId}' does not serve the ${route} route.`, { param: "model" });
  }
  return model;
}
