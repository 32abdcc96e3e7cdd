import { describe, expect, it } from "vitest";
import { budgetWindow, endUserId, endUserSource, keyTags, limitMinor, projectName, timeZone } from "./rules.js";

const refused = (fn: () => unknown) => {
  try {
    fn();
  } catch (err) {
    return { code: (err as { code?: string }).code, message: (err as Error).message };
  }
  throw new Error("not refused");
};

describe("budget settings", () => {
  it("take a time zone the runtime knows, spelled as the tz database spells it, and refuse offsets and unknown zones naming the field", () => {
    expect(timeZone("UTC")).toBe("UTC");
    expect(timeZone("Europe/Paris")).toBe("Europe/Paris");
    expect(timeZone("europe/paris")).toBe("Europe/Paris");
    expect(timeZone("Asia/Tokyo")).toBe("Asia/Tokyo");
    expect(timeZone("Etc/GMT+5")).toBe("Etc/GMT+5");
    // An alias stays as chosen (the runtime's ICU data would say Europe/Kiev, Asia/Calcutta).
    expect(timeZone("Europe/Kyiv")).toBe("Europe/Kyiv");
    expect(timeZone("Asia/Kolkata")).toBe("Asia/Kolkata");
    for (const bad of ["", "Mars/Olympus_Mons", "+01:00", "-05:00", "Europe/Paris; DROP", " UTC"]) {
      expect(refused(() => timeZone(bad))).toEqual({ code: "invalid_request", message: `time_zone must be an IANA time zone such as Europe/Paris, or UTC, got '${bad}'` });
    }
  });

  it("take a window of day, week, month or none", () => {
    for (const w of ["day", "week", "month", "none"]) expect(budgetWindow(w, "window")).toBe(w);
    expect(refused(() => budgetWindow("year", "end_user_window"))).toEqual({ code: "invalid_request", message: "end_user_window must be day, week, month or none, got 'year'" });
    expect(refused(() => budgetWindow("", "window")).code).toBe("invalid_request");
  });

  it("take limits as non-negative safe integers of minor units", () => {
    expect(limitMinor(0, "limit_minor")).toBe(0);
    expect(limitMinor(Number.MAX_SAFE_INTEGER, "limit_minor")).toBe(Number.MAX_SAFE_INTEGER);
    for (const bad of [-1, 1.5, Number.MAX_SAFE_INTEGER + 1, Number.NaN]) {
      expect(refused(() => limitMinor(bad, "limit_minor"))).toEqual({ code: "invalid_request", message: `limit_minor must be a non-negative integer of minor credit units (0: no cap), got ${bad}` });
    }
  });

  it("read end users from nowhere, the body or a header", () => {
    for (const s of ["", "body", "header"]) expect(endUserSource(s)).toBe(s);
    expect(refused(() => endUserSource("cookie")).message).toBe("end_user_source must be '' (off), 'body' or 'header', got 'cookie'");
  });

  it("keep at most 10 tags per key, each 1 to 64 characters of letters, digits and _ . : -, duplicates dropped", () => {
    expect(keyTags(["team:search", "env.prod", "cost-center_42", "team:search"])).toEqual(["team:search", "env.prod", "cost-center_42"]);
    expect(keyTags([])).toEqual([]);
    expect(keyTags(["x".repeat(64)])).toHaveLength(1);
    for (const bad of ["", "x".repeat(65), "has space", "slash/no", "é"]) expect(refused(() => keyTags([bad])).message).toBe(`tag '${bad}' must be 1 to 64 characters of A-Z a-z 0-9 _ . : -`);
    const eleven = Array.from({ length: 11 }, (_, i) => `t${i}`);
    expect(keyTags(eleven.slice(0, 10))).toHaveLength(10);
    expect(refused(() => keyTags(eleven)).message).toBe("a key has at most 10 tags, got 11");
  });

  it("take end-user ids exactly as requests carry them and as the data-plane reads them: 1 to 256 characters, no control characters", () => {
    expect(endUserId(" user 1 ")).toBe(" user 1 ");
    expect(endUserId("😀".repeat(128))).toHaveLength(256);
    expect(refused(() => endUserId("")).message).toBe("end_user must be 1 to 256 characters, got 0");
    expect(refused(() => endUserId("u".repeat(257))).message).toBe("end_user must be 1 to 256 characters, got 257");
    // An emoji is two UTF-16 code units, as the data-plane counts them.
    expect(refused(() => endUserId("😀".repeat(129))).message).toBe("end_user must be 1 to 256 characters, got 258");
    for (const bad of ["a\u0000b", "tab\there", "new\nline", "del\u007f"]) expect(refused(() => endUserId(bad)).message).toBe("end_user must not contain control characters");
  });

  it("name projects with 1 to 128 characters, never like an id", () => {
    expect(projectName("  search  ")).toBe("search");
    expect(refused(() => projectName(" ")).message).toBe("name must be 1 to 128 characters");
    expect(refused(() => projectName("proj_x")).message).toBe("name must not start with 'proj_' (reserved for ids)");
  });
});
