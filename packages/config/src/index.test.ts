import { describe, expect, it } from "vitest";
import { z } from "zod";
import { blankRefused, byteSize, duration, port, presentVariables, problemsOf, refuseProblems, wholeNumber } from "./index.js";

const Schema = z.object({ SVC_PORT: port(8080), SVC_RETRIES: wholeNumber(2, 0, 10), SVC_LIMIT: wholeNumber(undefined, 1_024), SVC_NAME: z.string().default("svc") });
const read = (env: Record<string, string | undefined>) => {
  const parsed = Schema.safeParse(presentVariables("SVC_", env));
  refuseProblems("svc", problemsOf(parsed));
  return parsed.data!;
};

describe("a service's environment", () => {
  it("reads an empty or blank variable as unset: the default stays, never 0", () => {
    expect(read({ SVC_PORT: "", SVC_RETRIES: "  ", SVC_LIMIT: "", SVC_NAME: "" })).toEqual({ SVC_PORT: 8080, SVC_RETRIES: 2, SVC_LIMIT: undefined, SVC_NAME: "svc" });
    expect(read({ SVC_PORT: "0", SVC_RETRIES: " 7 " })).toMatchObject({ SVC_PORT: 0, SVC_RETRIES: 7 });
  });

  it("takes only the service's own variables", () => {
    expect(presentVariables("SVC_", { SVC_PORT: "1", OTHER_PORT: "2", SVC_EMPTY: "", SVC_UNSET: undefined })).toEqual({ SVC_PORT: "1" });
  });

  it("names the settings that must not be left blank", () => {
    expect(blankRefused({ SVC_TLS_CA_FILE: " ", SVC_TLS_CERT_FILE: "/c.pem" }, ["SVC_TLS_CA_FILE", "SVC_TLS_CERT_FILE", "SVC_TLS_KEY_FILE"])).toEqual(["SVC_TLS_CA_FILE: must not be empty"]);
  });

  it("refuses numbers that are not digits or are out of range, every one at once, by name and value", () => {
    let message = "";
    try {
      read({ SVC_PORT: "99999", SVC_RETRIES: "1e1", SVC_LIMIT: "512" });
    } catch (err) {
      message = (err as Error).message;
    }
    expect(message).toBe(
      [
        "invalid svc configuration:",
        '  SVC_PORT: a whole number from 0 to 65535, not "99999"',
        '  SVC_RETRIES: a whole number from 0 to 10, not "1e1"',
        '  SVC_LIMIT: a whole number of at least 1024, not "512"',
      ].join("\n"),
    );
    for (const bad of ["-1", "0x10", "8080.5", "eighty", "+80"]) expect(() => read({ SVC_PORT: bad })).toThrow(`SVC_PORT: a whole number from 0 to 65535, not ${JSON.stringify(bad)}`);
  });

  it("reads durations with their unit and sizes as Kubernetes writes them, refusing a bare number or a decimal unit", () => {
    const d = duration("72h", 120_000);
    expect(d.parse(undefined)).toBe(72 * 3_600_000);
    expect([d.parse("90m"), d.parse("7d"), d.parse(" 2m ")]).toEqual([90 * 60_000, 7 * 86_400_000, 120_000]);
    for (const bad of ["72", "1m", "1.5h", "-2h", "2w"]) expect(d.safeParse(bad).success, bad).toBe(false);
    const b = byteSize("20GiB", 1024);
    expect(b.parse(undefined)).toBe(20 * 1024 ** 3);
    expect([b.parse("150Gi"), b.parse("512MiB"), b.parse("4096"), b.parse("1Ti")]).toEqual([150 * 1024 ** 3, 512 * 1024 ** 2, 4096, 1024 ** 4]);
    for (const bad of ["20GB", "20G", "1.5Gi", "512", "-1"]) expect(b.safeParse(bad).success, bad).toBe(false);
  });
});
