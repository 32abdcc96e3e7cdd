import { describe, expect, it } from "vitest";
import { parseInstant } from "./timestamps.js";

describe("parseInstant", () => {
  it("reads dates as UTC midnight and honours an explicit zone", () => {
    expect(parseInstant("2026-11-01")).toBe(Date.UTC(2026, 10, 1));
    expect(parseInstant("2026-11-01T09:30:00Z")).toBe(Date.UTC(2026, 10, 1, 9, 30));
    expect(parseInstant("2026-11-01T09:30Z")).toBe(Date.UTC(2026, 10, 1, 9, 30));
    expect(parseInstant("2026-11-01T10:30:00.250+01:00")).toBe(Date.UTC(2026, 10, 1, 9, 30, 0, 250));
    expect(parseInstant("2026-11-01T04:00:00-0530")).toBe(Date.UTC(2026, 10, 1, 9, 30));
    // Beyond milliseconds is dropped, not rounded into the next millisecond.
    expect(parseInstant("2026-11-01T09:30:00.123999Z")).toBe(Date.UTC(2026, 10, 1, 9, 30, 0, 123));
    expect(parseInstant("0099-01-01")).toBe(new Date("0099-01-01T00:00:00Z").getTime());
  });

  it("refuses what is not one instant: no zone, impossible dates, other notations", () => {
    for (const bad of [
      "2026-11-01T09:30:00",
      "2026-02-30",
      "2026-13-01",
      "2026-11-01T24:00:00Z",
      "2026-11-01T09:60Z",
      "2026-11-01T09:30:00+25:00",
      "yesterday",
      "1764000000000",
      "2026-11-01 09:30:00Z",
      "",
    ]) {
      expect({ bad, ms: parseInstant(bad) }).toEqual({ bad, ms: undefined });
    }
  });
});
