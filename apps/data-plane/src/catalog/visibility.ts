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

/** 1 credit = 1,000,000 minor units (docs/billing.md, "Units"): how a threshold reads in a message. */
const MINOR_PER_CREDIT = 1_000_000;

/**
 * Why a published model is not visible to a key, as the 403 to answer. Each layer that excludes it
 * is named, so the caller learns who can fix it: an operator enables a model for the organization,
 * a top-up (or the trial policy) lifts the trial's allowlist, an org admin issues a key whose own
 * allowlist includes it. The code is the first layer in that order; the message names every one.
 */
function modelNotVisibleError(key: KeyContext, model: Model, trial: TrialPolicy | undefined, allowedModels: string[]): GatewayError {
  const s = setsOf(key);
  const id = model.id;
  const reasons: { code: "model_not_enabled" | "model_not_in_trial" | "model_not_allowed"; text: string }[] = [];
  if (!s.enabled.has(id)) {
    reasons.push({
      code: "model_not_enabled",
      text: `The organization '${key.org_name}' has not enabled the model '${id}': an operator enables it (gatewayctl models enable ${key.org_name} ${id}).`,
    });
  }
  if (key.org_in_trial && !(trial?.allowed_models ?? []).includes(id)) {
    const unlock = trial?.unlock_topup_minor ?? 0;
    const trialModels = trial?.allowed_models.length ? `only ${trial.allowed_models.join(", ")}` : "no models";
    reasons.push({
      code: "model_not_in_trial",
      text:
        `The organization '${key.org_name}' is in trial, which allows ${trialModels}. ` +
        `Top-ups totalling ${unlock} minor units (${unlock / MINOR_PER_CREDIT} credits) end the trial; an operator can also add the model to the trial policy (gatewayctl trial-policy set) or end the trial (gatewayctl org trial ${key.org_name} off).`,
    });
  }
  if (s.allow && !s.allow.has(id)) {
    reasons.push({
      code: "model_not_allowed",
      text: `This API key may not use the model '${id}': its model allowlist excludes it; use one of allowed_models, or ask an org admin for a key that allows it.`,
    });
  }
  const code = reasons[0]?.code ?? "model_not_allowed";
  return new GatewayError(code, reasons.map((r) => r.text).join(" "), {
    allowed_models: allowedModels,
    // Only a trial that is the sole obstacle is lifted by paying; anything else needs a person.
    action: reasons.length === 1 && code === "model_not_in_trial" ? "top_up" : "contact_org_admin",
    param: "model",
  });
}

/**
 * Resolves a requested public model id for a route, or throws the precise catalog/policy error.
 * Order: route scope, existence (404 for unknown or draft: a draft is invisible), visibility
 * (403 naming the layer that excludes it, with the allowed models), route support (400).
 */
export function resolveModel(key: KeyContext, catalog: CatalogView, trial: TrialPolicy | undefined, route: RouteKind, modelId: string): Model {
  requireRoute(key, route);
  const model = catalog.models.get(modelId);
  if (!model || model.status !== "published") {
    throw new GatewayError("model_not_found", `The model '${modelId}' does not exist or is not available. List models with GET /v1/models.`, { param: "model" });
  }
  if (!modelVisible(key, model, trial)) throw modelNotVisibleError(key, model, trial, visibleModelIds(key, catalog, trial, route));
  if (!model.routes.includes(modelRoute(route))) {
    throw new GatewayError("model_not_supported_for_route", `The model '${modelId}' does not serve the ${route} route.`, { param: "model" });
  }
  return model;
}
