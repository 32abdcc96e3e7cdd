import type { Request } from "express";
import { GatewayError } from "@gateway/errors";
import type { KeyContext } from "@gateway/proto";
import type { BudgetClaim } from "../credits/lease-manager.js";

/**
 * Whose spend a request is (docs/billing.md, "Budgets"): its end user, as the organization reads it,
 * the key's project and the tags of the key and of the request. Its usage record keeps them; the
 * budgets it is held under follow from them.
 */
export interface Attribution {
  endUser?: string;
  projectId?: string;
  tags?: string[];
}

const TAG = /^[A-Za-z0-9_.:-]{1,64}$/;
const MAX_REQUEST_TAGS = 10;
const MAX_TAGS = 20;
const MAX_END_USER = 256;
/** What an end user id may not contain: control characters (it is a budget's name in logs and errors). */
const CONTROL = /\p{Cc}/u;

export const TAGS_HEADER = "x-gateway-tags";
export const END_USER_HEADER = "x-gateway-end-user";

function header(req: Request | undefined, name: string): string | undefined {
  const v = req?.headers[name];
  return typeof v === "string" ? v : undefined;
}

/** The request's own tags: `x-gateway-tags: a,b` (at most 10, each 1–64 of A–Z a–z 0–9 _ . : -); 400 otherwise. */
function requestTags(req: Request | undefined): string[] | undefined {
  const raw = header(req, TAGS_HEADER);
  if (raw === undefined) return undefined;
  const tags = raw
    .split(",")
    .map((t) => t.trim())
    .filter((t) => t !== "");
  if (tags.length > MAX_REQUEST_TAGS) throw new GatewayError("invalid_request", `Header '${TAGS_HEADER}' has ${tags.length} tags; at most ${MAX_REQUEST_TAGS} are allowed.`);
  for (const t of tags) {
    if (!TAG.test(t)) throw new GatewayError("invalid_request", `Header '${TAGS_HEADER}': tag '${t.slice(0, 70)}' must be 1–64 characters of A–Z, a–z, 0–9, '_', '.', ':' or '-'.`);
  }
  return tags;
}

/** The end user a body names: OpenAI's `user` (or `safety_identifier`), Anthropic's `metadata.user_id`. */
function bodyEndUser(body: unknown): { value: unknown; field: string } | undefined {
  if (typeof body !== "object" || body === null) return undefined;
  const b = body as { user?: unknown; safety_identifier?: unknown; metadata?: { user_id?: unknown } | null };
  if (b.user !== undefined && b.user !== "") return { value: b.user, field: "user" };
  if (b.safety_identifier !== undefined && b.safety_identifier !== "") return { value: b.safety_identifier, field: "safety_identifier" };
  const m = b.metadata;
  if (typeof m === "object" && m !== null && m.user_id !== undefined && m.user_id !== "") return { value: m.user_id, field: "metadata.user_id" };
  return undefined;
}

function endUserOf(key: KeyContext, req: Request | undefined, body: unknown): string | undefined {
  const source = key.end_user_source;
  if (source !== "body" && source !== "header") return undefined;
  const found = source === "header" ? { value: header(req, END_USER_HEADER), field: `header '${END_USER_HEADER}'` } : bodyEndUser(body);
  if (found?.value === undefined) return undefined;
  const v = found.value;
  if (typeof v !== "string" || v.length > MAX_END_USER || CONTROL.test(v)) {
    throw new GatewayError("invalid_request", `The end user (${found.field}) must be a string of at most ${MAX_END_USER} characters without control characters.`, {
      ...(source === "body" ? { param: found.field } : {}),
    });
  }
  return v;
}

/** The request's attribution; undefined when it has none (most keys: nothing to do per request). */
export function attributionOf(key: KeyContext, req: Request | undefined, body: unknown): Attribution | undefined {
  const own = requestTags(req);
  const keyTags = key.key_tags ?? [];
  const endUser = endUserOf(key, req, body);
  const projectId = key.project_id || undefined;
  if (!own && keyTags.length === 0 && !endUser && !projectId) return undefined;
  const tags = own ? [...new Set([...keyTags, ...own])].slice(0, MAX_TAGS) : keyTags.length > 0 ? [...keyTags] : undefined;
  return { ...(endUser ? { endUser } : {}), ...(projectId ? { projectId } : {}), ...(tags && tags.length > 0 ? { tags } : {}) };
}

/** What a request's hold is checked against: the organization's monthly cap (control-planes before budget windows) and its budgets. */
export interface SpendRules {
  monthlyBudgetMinor: number;
  claims: BudgetClaim[];
  /** The balances at or below which the organization is alerted (docs/billing.md, "Alerts"). */
  balanceAlertsMinor: readonly number[];
}

/** The rules of a key alone (its organization's, its own and its project's budgets), once per cached key context. */
const byKey = new WeakMap<KeyContext, SpendRules>();

function keyRules(key: KeyContext): SpendRules {
  const known = byKey.get(key);
  if (known) return known;
  const claims: BudgetClaim[] = [];
  const add = (scope: string, b: { limit_minor: number | string; window: string } | null | undefined) => {
    const limit = Number(b?.limit_minor ?? 0);
    if (b && limit > 0) claims.push({ scope, limitMinor: limit, window: b.window || "month", timeZone: key.org_time_zone || "UTC", alertPcts: key.alert_thresholds_pct ?? [] });
  };
  add("org", key.org_budget);
  add(`key:${key.key_id}`, key.key_budget);
  if (key.project_id) add(`project:${key.project_id}`, key.project_budget);
  const rules: SpendRules = {
    monthlyBudgetMinor: key.org_budget || claims.length > 0 ? 0 : key.monthly_budget_minor,
    claims,
    balanceAlertsMinor: (key.balance_alerts_minor ?? []).map(Number),
  };
  byKey.set(key, rules);
  return rules;
}

/**
 * The budgets a request is held under: the organization's, the key's, its project's and its end
 * user's (a named override, else the default cap; an override of 0 is no cap), each with its window
 * in the organization's time zone. A control-plane of the release before windows sends no
 * `org_budget`: its monthly cap is then checked by the credit lease as before.
 */
export function spendRules(key: KeyContext, a: Attribution | undefined): SpendRules {
  const rules = keyRules(key);
  const endUser = a?.endUser;
  const b = key.end_user_budget;
  if (!endUser || !b) return rules;
  const override = key.end_user_overrides?.[endUser];
  const limit = Number(override ?? b.limit_minor);
  if (!(limit > 0)) return rules;
  const user: BudgetClaim = { scope: `user:${endUser}`, limitMinor: limit, window: b.window || "month", timeZone: key.org_time_zone || "UTC", alertPcts: key.alert_thresholds_pct ?? [] };
  return { ...rules, claims: [...rules.claims, user] };
}
