/**
 * What a budget setting may be (docs/billing.md, "Budgets"): every value an admin RPC or the console
 * sends is checked here, and a refusal names the field and what it takes.
 */
import { GatewayError } from "@gateway/errors";
import type { BudgetWindow, EndUserSource } from "../db/schema.js";

export const BUDGET_WINDOWS: readonly BudgetWindow[] = ["day", "week", "month", "none"];
/** Named end users with a limit of their own, per organization: every one travels in each of its keys' contexts. */
export const MAX_END_USER_OVERRIDES = 1_000;
export const MAX_KEY_TAGS = 10;
const TAG = /^[A-Za-z0-9_.:-]{1,64}$/;
const MAX_END_USER_CHARS = 256;
const MAX_PROJECT_NAME_CHARS = 128;

/** A cap in minor credit units: a non-negative safe integer (0 = no cap). */
export function limitMinor(v: number, field: string): number {
  if (!Number.isSafeInteger(v) || v < 0) throw new GatewayError("invalid_request", `${field} must be a non-negative integer of minor credit units (0: no cap), got ${v}`);
  return v;
}

export function budgetWindow(v: string, field: string): BudgetWindow {
  if (!(BUDGET_WINDOWS as readonly string[]).includes(v)) throw new GatewayError("invalid_request", `${field} must be day, week, month or none, got '${v}'`);
  return v as BudgetWindow;
}

/**
 * An IANA time zone the runtime knows, spelled as the tz database spells it (`europe/paris` is stored
 * `Europe/Paris`). A name the runtime knows as an alias stays as given: its ICU data still resolves
 * `Europe/Kyiv` to the older `Europe/Kiev`, which is the same zone but not what the organization
 * chose. A UTC offset (`+01:00`) is not a zone (it has no daylight saving time, and Postgres reads
 * its sign the other way).
 */
export function timeZone(v: string): string {
  const refused = () => new GatewayError("invalid_request", `time_zone must be an IANA time zone such as Europe/Paris, or UTC, got '${v}'`);
  if (!/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(v)) throw refused();
  let resolved: string;
  try {
    resolved = new Intl.DateTimeFormat("en", { timeZone: v }).resolvedOptions().timeZone;
  } catch {
    throw refused();
  }
  return resolved.toLowerCase() === v.toLowerCase() ? resolved : v;
}

export function endUserSource(v: string): EndUserSource {
  if (v !== "" && v !== "body" && v !== "header") throw new GatewayError("invalid_request", `end_user_source must be '' (off), 'body' or 'header', got '${v}'`);
  return v;
}

/** A key's tags, duplicates dropped, in the order given. */
export function keyTags(tags: readonly string[]): string[] {
  const unique = [...new Set(tags)];
  const bad = unique.find((t) => !TAG.test(t));
  if (bad !== undefined) throw new GatewayError("invalid_request", `tag '${bad}' must be 1 to 64 characters of A-Z a-z 0-9 _ . : -`);
  if (unique.length > MAX_KEY_TAGS) throw new GatewayError("invalid_request", `a key has at most ${MAX_KEY_TAGS} tags, got ${unique.length}`);
  return unique;
}

/**
 * An end user's id exactly as requests carry it (never trimmed), as the data-plane reads one
 * (apps/data-plane/src/admission/attribution.ts): 1 to 256 UTF-16 code units, no control characters.
 * A limit for an id no request can carry would never apply.
 */
export function endUserId(v: string): string {
  if (v.length < 1 || v.length > MAX_END_USER_CHARS) throw new GatewayError("invalid_request", `end_user must be 1 to ${MAX_END_USER_CHARS} characters, got ${v.length}`);
  if (/\p{Cc}/u.test(v)) throw new GatewayError("invalid_request", "end_user must not contain control characters");
  return v;
}

export function projectName(v: string): string {
  const name = v.trim();
  if (name.length < 1 || name.length > MAX_PROJECT_NAME_CHARS) throw new GatewayError("invalid_request", `name must be 1 to ${MAX_PROJECT_NAME_CHARS} characters`);
  if (name.startsWith("proj_")) throw new GatewayError("invalid_request", "name must not start with 'proj_' (reserved for ids)");
  return name;
}
