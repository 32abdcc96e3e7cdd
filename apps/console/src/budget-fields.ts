import { GatewayError } from "@gateway/errors";
import { BUDGET_WINDOWS } from "./shared/budget-window.js";
import { creditsText, parseCredits, type MoneyFormat } from "./shared/money.js";
import { creditsOf } from "./params.js";

/**
 * What the budgets and alerts forms send, read as the console's pages name it (docs/console.md,
 * "Money"): amounts in credits as people type them (or, for scripts, `…_minor` integers), windows,
 * the time zone, end users, project names and alert thresholds. A refusal names the field as its
 * page does and says what it takes in the operator's unit, never a `_minor` name; the control-plane
 * checks every value again.
 */

/** An optional amount: `field` in credits or `field_minor`; undefined when neither is given (the setting is kept). */
export function creditsIfGiven(body: Record<string, unknown>, field: string, label: string, money: MoneyFormat, note = " (0: no cap)"): number | undefined {
  const given = (v: unknown) => v !== undefined && v !== null;
  if (!given(body[field]) && !given(body[`${field}_minor`])) return undefined;
  return creditsOf(body, field, label, money, { note });
}

/** An optional window: day, week, month or none. */
export function windowIfGiven(v: unknown, label: string): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== "string" || !(BUDGET_WINDOWS as readonly string[]).includes(v)) throw new GatewayError("invalid_request", `${label} must be day, week, month or none.`);
  return v;
}

/** An optional IANA time zone this runtime knows ("Europe/Paris", "UTC"); not a UTC offset (it has no daylight saving time). */
export function timeZoneIfGiven(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  const refused = new GatewayError("invalid_request", "The time zone must be an IANA time zone such as Europe/Paris, or UTC.");
  if (typeof v !== "string" || !/^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/.test(v.trim())) throw refused;
  try {
    new Intl.DateTimeFormat("en", { timeZone: v.trim() });
  } catch {
    throw refused;
  }
  return v.trim();
}

/** Where end users are read: "" (off), "body" or "header"; undefined when not given. */
export function endUserSourceIfGiven(v: unknown): string | undefined {
  if (v === undefined || v === null) return undefined;
  if (v !== "" && v !== "body" && v !== "header") throw new GatewayError("invalid_request", "Where end users are read must be off, body or header.");
  return v;
}

/** An end user's id exactly as its requests carry it: 1 to 256 characters, no control characters. */
export function endUserOf(v: unknown): string {
  if (typeof v !== "string" || v.length < 1 || v.length > 256 || /\p{Cc}/u.test(v)) {
    throw new GatewayError("invalid_request", "The end user must be 1 to 256 characters without control characters, exactly as requests name it.");
  }
  return v;
}

/** A new project's name: 1 to 128 characters, not starting with `proj_` (ids do). */
export function projectNameOf(v: unknown): string {
  const name = typeof v === "string" ? v.trim() : "";
  if (name.length < 1 || name.length > 128 || name.startsWith("proj_")) throw new GatewayError("invalid_request", "The project's name must be 1 to 128 characters, not starting with proj_.");
  return name;
}

/** A list a form sends as text ("50, 80 100") or a script as an array; undefined when not given, [] for "" (removes). */
function listOf(v: unknown, split: RegExp): unknown[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (Array.isArray(v)) return v;
  if (typeof v === "string") return v.split(split).filter((s) => s.trim() !== "");
  return [v];
}

const MAX_THRESHOLDS = 10;

/** Budget alert thresholds: whole percentages of each budget's cap, 1 to 1000, at most 10 (commas or spaces between). */
export function budgetPctsIfGiven(v: unknown): number[] | undefined {
  const list = listOf(v, /[\s,;]+/);
  if (list === undefined) return undefined;
  const pcts = list.map((x) => (typeof x === "string" && /^\s*\d+\s*%?\s*$/.test(x) ? Number.parseInt(x, 10) : x));
  if (pcts.length > MAX_THRESHOLDS || pcts.some((p) => typeof p !== "number" || !Number.isInteger(p) || p < 1 || p > 1_000)) {
    throw new GatewayError("invalid_request", `Budget alerts must be whole percentages from 1 to 1000 separated by spaces, at most ${MAX_THRESHOLDS} (empty: none).`);
  }
  return pcts as number[];
}

/**
 * Balance alert thresholds: amounts in credits more than 0 (spaces or semicolons between: a comma
 * groups thousands, "1,000.50"), or `balance_minor` integers; at most 10. Undefined when neither is given.
 */
export function balancesIfGiven(body: Record<string, unknown>, money: MoneyFormat): number[] | undefined {
  const given = body.balance ?? undefined;
  const minor = body.balance_minor ?? undefined;
  if (given === undefined && minor === undefined) return undefined;
  const example = creditsText(12_500_000, Math.max(money.decimals, 1));
  const refused = new GatewayError(
    "invalid_request",
    `Balance alerts must be amounts in ${money.unit} such as ${example}, more than 0 with at most 6 decimals, separated by spaces, at most ${MAX_THRESHOLDS} (empty: none).`,
  );
  const amounts =
    given !== undefined
      ? (listOf(given, /[\s;]+/) ?? []).map((x) => (typeof x === "string" || typeof x === "number" ? parseCredits(String(x)) : null))
      : (listOf(minor, /[\s,;]+/) ?? []).map((x) => (typeof x === "number" && Number.isSafeInteger(x) ? x : null));
  if (amounts.length > MAX_THRESHOLDS || amounts.some((a) => a === null || a < 1)) throw refused;
  return amounts as number[];
}
