/**
 * Budget windows as the ledger opens them (docs/billing.md, "Budgets"): a `day`, a `week` (from
 * Monday) or a `month` starts at midnight in the organization's time zone; `none` never resets. The
 * ledger answers a window's end once it has a lease in it; before the window's first request the
 * pages work its end out here, the same way (the next local midnight, converted to an instant with
 * the zone's offset then), so every budget says when it resets.
 */

export const BUDGET_WINDOWS = ["day", "week", "month", "none"] as const;
export type BudgetWindowKind = (typeof BUDGET_WINDOWS)[number];

const DAY_MS = 86_400_000;

/** The wall clock in `timeZone` at `ms`: year, month (1-12), day, ISO weekday (1 = Monday), and the zone's offset from UTC (ms). */
function wallClock(ms: number, timeZone: string): { year: number; month: number; day: number; weekday: number; offsetMs: number } {
  const parts = new Intl.DateTimeFormat("en-US", {
    timeZone,
    hourCycle: "h23",
    year: "numeric",
    month: "numeric",
    day: "numeric",
    hour: "numeric",
    minute: "numeric",
    second: "numeric",
    weekday: "short",
  }).formatToParts(ms);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  const [year, month, day] = [Number(get("year")), Number(get("month")), Number(get("day"))];
  const asUtc = Date.UTC(year, month - 1, day, Number(get("hour")), Number(get("minute")), Number(get("second")));
  const weekday = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].indexOf(get("weekday")) + 1;
  return { year, month, day, weekday, offsetMs: asUtc - Math.floor(ms / 1000) * 1000 };
}

/** The instant of midnight starting local date `year-month-day` in `timeZone` (month may overflow: Date.UTC normalizes it). */
function localMidnight(year: number, month: number, day: number, timeZone: string): number {
  const wall = Date.UTC(year, month - 1, day);
  // The offset at a first guess, then at the instant it gives: right across a change of offset between them.
  const guess = wall - wallClock(wall, timeZone).offsetMs;
  return wall - wallClock(guess, timeZone).offsetMs;
}

/**
 * When the window of kind `window` that holds `nowMs` ends in `timeZone` (Unix ms), or null for a
 * window that never ends (`none`) or a zone or window this runtime does not know.
 */
export function windowEndMs(window: string, timeZone: string, nowMs: number): number | null {
  if (window !== "day" && window !== "week" && window !== "month") return null;
  let now: ReturnType<typeof wallClock>;
  try {
    now = wallClock(nowMs, timeZone);
  } catch {
    return null;
  }
  if (window === "month") return localMidnight(now.year, now.month + 1, 1, timeZone);
  const days = window === "day" ? 1 : 8 - now.weekday;
  const end = localMidnight(now.year, now.month, now.day + days, timeZone);
  // A zone whose midnight moved past `now` (a negative offset change at midnight): never before now.
  return end > nowMs ? end : end + DAY_MS;
}

/** A window as words after an amount: "a day", "a week", "a month", "in all" (never resets). */
export const windowWords = (window: string) => (window === "none" ? "in all" : `a ${window}`);
