import { describe, expect, it } from "vitest";
import { windowEndMs, windowWords } from "./budget-window.js";

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());

describe("when a budget's window resets, before the ledger has opened it", () => {
  it("a day, a week (from Monday) and a month end at the next local midnight of the organization's zone", () => {
    // Wednesday 3 December 2026, 09:30 UTC = 10:30 in Paris.
    const now = at("2026-12-03T09:30:00Z");
    expect(iso(windowEndMs("day", "UTC", now))).toBe("2026-12-04T00:00:00.000Z");
    expect(iso(windowEndMs("day", "Europe/Paris", now))).toBe("2026-12-03T23:00:00.000Z");
    expect(iso(windowEndMs("week", "Europe/Paris", now))).toBe("2026-12-06T23:00:00.000Z");
    expect(iso(windowEndMs("month", "Europe/Paris", now))).toBe("2026-12-31T23:00:00.000Z");
    expect(iso(windowEndMs("month", "America/New_York", now))).toBe("2027-01-01T05:00:00.000Z");
    // A Monday's week ends the next Monday; late on a Sunday in New York it is already Monday in UTC.
    expect(iso(windowEndMs("week", "UTC", at("2026-12-07T00:00:00Z")))).toBe("2026-12-14T00:00:00.000Z");
    expect(iso(windowEndMs("week", "America/New_York", at("2026-12-07T03:00:00Z")))).toBe("2026-12-07T05:00:00.000Z");
    expect(iso(windowEndMs("month", "Asia/Tokyo", at("2026-12-31T16:00:00Z")))).toBe("2027-01-31T15:00:00.000Z");
  });

  it("across a change to daylight saving time a day is 23 hours long, and the reset is still local midnight", () => {
    // Paris moves to summer time on Sunday 29 March 2026: that day ends at 22:00 UTC, not 23:00.
    expect(iso(windowEndMs("day", "Europe/Paris", at("2026-03-29T08:00:00Z")))).toBe("2026-03-29T22:00:00.000Z");
    expect(iso(windowEndMs("month", "Europe/Paris", at("2026-03-10T12:00:00Z")))).toBe("2026-03-31T22:00:00.000Z");
  });

  it("a window that never resets, or a zone the runtime does not know, has no end", () => {
    expect(windowEndMs("none", "UTC", Date.now())).toBeNull();
    expect(windowEndMs("day", "Moon/Tranquility", Date.now())).toBeNull();
    expect(windowWords("none")).toBe("in all");
    expect(windowWords("week")).toBe("a week");
  });
});
