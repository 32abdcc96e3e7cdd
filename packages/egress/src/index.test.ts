import { describe, expect, it } from "vitest";
import { describeAddressClass, forbiddenResolution, resolveWithin, urlShape } from "./index.js";

// The address table itself is covered where it began: apps/data-plane/src/video/media-url.test.ts.
describe("urlShape", () => {
  it("takes an https URL naming a host, lower-cased", () => {
    expect(urlShape("https://Hooks.Example/x")).toMatchObject({ host: "hooks.example" });
  });

  it.each([
    [42, "must be an https:// URL string."],
    [`https://a.example/${"x".repeat(2048)}`, "is longer than 2048 characters."],
    ["http://a.example/", "must be an https:// URL."],
    ["ftp://a.example/", "must be an https:// URL."],
    ["https://u:p@a.example/", "must not contain credentials (user:password@)."],
    ["https://10.0.0.1/", "must name a host, not an IP address."],
    ["https://[fe80::1]/", "must name a host, not an IP address."],
    ["https://api.localhost/", "host 'api.localhost' is localhost."],
  ])("refuses %s", (value, problem) => {
    expect(urlShape(value)).toEqual({ problem });
  });

  it("lets a trusted host use http, an address or localhost, but never credentials", () => {
    const trusted = (h: string) => h === "127.0.0.1" || h === "localhost";
    expect(urlShape("http://127.0.0.1:8080/", { trusted })).toMatchObject({ host: "127.0.0.1" });
    expect(urlShape("http://localhost/", { trusted })).toMatchObject({ host: "localhost" });
    expect(urlShape("http://u:p@localhost/", { trusted })).toEqual({ problem: "must not contain credentials (user:password@)." });
    expect(urlShape("http://127.0.0.2/", { trusted })).toEqual({ problem: "must be an https:// URL." });
  });
});

describe("forbiddenResolution and resolveWithin", () => {
  it("names the first address that is not public", () => {
    expect(forbiddenResolution("h", ["93.184.216.34", "8.8.8.8"])).toBeUndefined();
    expect(forbiddenResolution("h", ["93.184.216.34", "100.64.1.1"])).toBe("host 'h' resolves to a carrier-grade-nat address (100.64.1.1).");
    expect(describeAddressClass("unspecified")).toBe("an unspecified");
    expect(describeAddressClass("unique-local")).toBe("a unique-local");
  });

  it("rejects no answer, an empty answer and a late one", async () => {
    await expect(resolveWithin(async () => ["1.1.1.1"], "h", 100)).resolves.toEqual(["1.1.1.1"]);
    await expect(resolveWithin(async () => [], "h", 100)).rejects.toThrow(/no address/);
    await expect(resolveWithin(() => new Promise(() => undefined), "h", 30)).rejects.toThrow(/longer than 30 ms/);
  });
});
