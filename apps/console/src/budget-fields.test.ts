import { describe, expect, it } from "vitest";
import { balancesIfGiven, budgetPctsIfGiven, creditsIfGiven, endUserOf, endUserSourceIfGiven, projectNameOf, timeZoneIfGiven, windowIfGiven } from "./budget-fields.js";

const credits = { decimals: 2, unit: "credits" };
const refusal = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error("not refused");
};

describe("what the budgets and alerts forms send, named as the pages name it", () => {
  it("reads a cap in credits as typed, or minor units from a script; left out, it is kept; a refusal is in credits, never limit_minor", () => {
    expect(creditsIfGiven({ limit: "1,000.5" }, "limit", "The key's cap", credits)).toBe(1_000_500_000);
    expect(creditsIfGiven({ limit_minor: 1_500 }, "limit", "The key's cap", credits)).toBe(1_500);
    expect(creditsIfGiven({}, "limit", "The key's cap", credits)).toBeUndefined();
    for (const body of [{ limit: "-3" }, { limit: "lots" }, { limit_minor: "lots" }, { limit_minor: 1.5 }]) {
      expect(refusal(() => creditsIfGiven(body, "limit", "The key's cap", credits))).toBe("The key's cap must be an amount in credits such as 12.50, with at most 6 decimals (0: no cap).");
    }
    expect(refusal(() => creditsIfGiven({ end_user_limit: "x" }, "end_user_limit", "The end users' default cap", { decimals: 0, unit: "USD" }))).toBe(
      "The end users' default cap must be an amount in USD such as 12.5, with at most 6 decimals (0: no cap).",
    );
  });

  it("takes a window, a time zone the runtime knows, where end users are read, an end user and a project's name, and names each in a refusal", () => {
    expect(windowIfGiven("week", "The key's window")).toBe("week");
    expect(windowIfGiven(undefined, "The key's window")).toBeUndefined();
    expect(refusal(() => windowIfGiven("year", "The key's window"))).toBe("The key's window must be day, week, month or none.");
    expect(timeZoneIfGiven(" Europe/Paris ")).toBe("Europe/Paris");
    for (const bad of ["Moon/Tranquility", "+01:00", "", 3]) expect(refusal(() => timeZoneIfGiven(bad))).toBe("The time zone must be an IANA time zone such as Europe/Paris, or UTC.");
    expect(endUserSourceIfGiven("")).toBe("");
    expect(refusal(() => endUserSourceIfGiven("cookie"))).toBe("Where end users are read must be off, body or header.");
    expect(endUserOf(" alice@example.com")).toBe(" alice@example.com");
    for (const bad of ["", "x".repeat(257), "a\nb", undefined]) expect(refusal(() => endUserOf(bad))).toMatch(/^The end user must be 1 to 256 characters/);
    expect(projectNameOf(" search ")).toBe("search");
    expect(refusal(() => projectNameOf("proj_x"))).toBe("The project's name must be 1 to 128 characters, not starting with proj_.");
  });

  it("reads alert thresholds as a form types them or as a script sends them; empty removes them", () => {
    expect(budgetPctsIfGiven("50, 80 100%")).toEqual([50, 80, 100]);
    expect(budgetPctsIfGiven([80, 50])).toEqual([80, 50]);
    expect(budgetPctsIfGiven("")).toEqual([]);
    expect(budgetPctsIfGiven(undefined)).toBeUndefined();
    for (const bad of ["0", "1001", "half", "1 2 3 4 5 6 7 8 9 10 11", [1.5]]) {
      expect(refusal(() => budgetPctsIfGiven(bad))).toBe("Budget alerts must be whole percentages from 1 to 1000 separated by spaces, at most 10 (empty: none).");
    }
    // A comma groups thousands in an amount: amounts are separated by spaces or semicolons.
    expect(balancesIfGiven({ balance: "1,000.50 5; 0.25" }, credits)).toEqual([1_000_500_000, 5_000_000, 250_000]);
    expect(balancesIfGiven({ balance: "" }, credits)).toEqual([]);
    expect(balancesIfGiven({ balance_minor: [2_000_000] }, credits)).toEqual([2_000_000]);
    expect(balancesIfGiven({}, credits)).toBeUndefined();
    for (const bad of [{ balance: "0" }, { balance: "five" }, { balance_minor: [0] }, { balance_minor: ["1"] }]) {
      expect(refusal(() => balancesIfGiven(bad, credits))).toBe(
        "Balance alerts must be amounts in credits such as 12.50, more than 0 with at most 6 decimals, separated by spaces, at most 10 (empty: none).",
      );
    }
  });
});
