/**
 * Budgets as the budget page, a key's page and the alerts page show them: a cap with its window in
 * the operator's money format, the current window's spend and hold at the ledger, and when the window
 * resets, in the organization's time zone. A budget the ledger has no window for yet (no request
 * under it since its window began) resets all the same: its end is worked out as the ledger does.
 */
import { windowEndMs, windowWords } from "../shared/budget-window.js";
import { el } from "./dom.js";
import { money } from "./shell.js";

/** A cap (minor units; 0: none) and its window. */
export interface Budget {
  limit_minor: number;
  window: string;
}

/** A budget's current window at the ledger (`scope`: "org", "key:…", "project:…", "user:…"). */
export interface LedgerWindow {
  scope: string;
  window_start_ms: number;
  /** 0: the window never ends. */
  window_end_ms: number;
  limit_minor: number;
  spent_minor: number;
  held_minor: number;
}

export interface Project {
  id: string;
  name: string;
  budget: Budget | null;
  keys: number;
}

/** GET /api/budgets. */
export interface Budgets {
  time_zone: string;
  budget: Budget | null;
  end_user_source: string;
  end_user_budget: Budget | null;
  end_user_overrides: number;
  projects: Project[];
  end_users: Array<{ end_user: string; limit_minor: number }>;
  windows: LedgerWindow[];
}

export const NO_BUDGET: Budget = { limit_minor: 0, window: "month" };

/** "5.00 credits a day", "no cap". */
export const capText = (b: Budget | null | undefined) => (b?.limit_minor ? `${money(b.limit_minor)} ${windowWords(b.window)}` : "no cap");

/** The ledger's windows by scope, only those current now (a window that ended is the last one, not this one). */
export function currentWindows(windows: LedgerWindow[], now = Date.now()): Map<string, LedgerWindow> {
  return new Map(windows.filter((w) => w.window_end_ms === 0 || w.window_end_ms > now).map((w) => [w.scope, w]));
}

/** An instant as a person in the organization's zone reads it: "Dec 4, 2026, 12:00 AM". */
export const zoned = (ms: number, timeZone: string) => {
  try {
    return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short", timeZone });
  } catch {
    return new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
  }
};

/** When a budget's window resets, in the organization's zone: the ledger's end of it, or the one worked out; "never" for none. */
export function resetText(b: Budget | null | undefined, w: LedgerWindow | undefined, timeZone: string): string {
  if (!b?.limit_minor) return "—";
  const end = w ? w.window_end_ms : windowEndMs(b.window, timeZone, Date.now());
  return end ? zoned(end, timeZone) : "never";
}

/** The cells of a budget in a table: cap, spent, held, resets (a cap without a window yet: nothing counted in it yet). */
export function budgetCells(b: Budget | null | undefined, w: LedgerWindow | undefined, timeZone: string): string[] {
  if (!b?.limit_minor) return ["no cap", "—", "—", "—"];
  return [capText(b), w ? money(w.spent_minor) : "none yet", w ? money(w.held_minor) : "—", resetText(b, w, timeZone)];
}

/** A budget's current window as words: "1.20 credits spent, 0.10 credits held; resets Dec 4, 2026, 12:00 AM (Europe/Paris)". */
export function windowText(b: Budget | null | undefined, w: LedgerWindow | undefined, timeZone: string): string {
  const spent = w ? `${money(w.spent_minor)} spent, ${money(w.held_minor)} held` : "nothing spent yet";
  const reset = resetText(b, w, timeZone);
  return `${spent}; ${reset === "never" ? "never resets" : `resets ${reset} (${timeZone})`}`;
}

/** The window choices every budget form offers. */
export function windowOptions(select: HTMLSelectElement): void {
  select.replaceChildren(
    ...[
      ["day", "Day"],
      ["week", "Week (from Monday)"],
      ["month", "Month"],
      ["none", "None (never resets)"],
    ].map(([value, label]) => el("option", label, { value: value! })),
  );
}

/** A project's options for a select: its name (the value: its id), "none" first when `none` is given. */
export function projectOptions(select: HTMLSelectElement, projects: Project[], none?: string): void {
  const options = projects.map((p) => el("option", p.name, { value: p.id }));
  select.replaceChildren(...(none === undefined ? [] : [el("option", none, { value: "" })]), ...options);
}

/** Whether the signed-in role sets budgets and alert thresholds. */
export const setsBudgets = (role: string) => role === "admin" || role === "billing";
