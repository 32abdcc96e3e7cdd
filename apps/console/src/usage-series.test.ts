import { describe, expect, it } from "vitest";
import { burnRate, type ChartWindow } from "./usage-series.js";

const DAY = 86_400_000;
const now = Date.UTC(2026, 10, 28, 12);
const week: ChartWindow = { days: 7, from_ms: now - 7 * DAY, to_ms: now, bucket: "hour", group_by: "model" };

describe("the burn rate", () => {
  it("is the window's spend per day over the days the organization could spend in it, and the days the balance lasts at that rate", () => {
    // A month-old organization: the whole week.
    expect(burnRate(7_000_000, week, now - 30 * DAY, 70_000_000, now)).toEqual({ burn_rate_minor_per_day: 1_000_000, burn_days: 7, days_left: 70 });
    // A day-old organization spent 2 credits: 2 a day, not 2/7 — its days left do not read seven times too many.
    expect(burnRate(2_000_000, week, now - DAY, 10_000_000, now)).toEqual({ burn_rate_minor_per_day: 2_000_000, burn_days: 1, days_left: 5 });
    // An hour-old one: still at least a day (an hour's spend is not a rate).
    expect(burnRate(1_000_000, week, now - 3_600_000, 10_000_000, now).burn_days).toBe(1);
    // Three and a half days old.
    expect(burnRate(7_000_000, week, now - 3.5 * DAY, 10_000_000, now)).toMatchObject({ burn_rate_minor_per_day: 2_000_000, burn_days: 3.5 });
  });

  it("says nothing of days left when nothing was spent, and none for a balance below zero", () => {
    expect(burnRate(0, week, 0, 5_000_000, now)).toEqual({ burn_rate_minor_per_day: 0, burn_days: 7, days_left: null });
    expect(burnRate(1_000_000, week, 0, -5, now).days_left).toBe(0);
  });
});
