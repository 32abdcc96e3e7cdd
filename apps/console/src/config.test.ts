import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

const tokens = { CONSOLE_CONTROL_PLANE_TOKEN: "console-control-token-0123", CONSOLE_LEDGER_TOKEN: "console-ledger-token-01234" };
const problems = (env: Record<string, string | undefined>): string => {
  try {
    loadConfig(env);
  } catch (err) {
    return (err as Error).message;
  }
  return "";
};

describe("loadConfig: the console's environment", () => {
  it("needs its two caller tokens; everything else has a default, and an empty variable is unset", () => {
    expect(problems({})).toMatch(/CONSOLE_CONTROL_PLANE_TOKEN: required[\s\S]*CONSOLE_LEDGER_TOKEN: required/);
    expect(problems({ ...tokens, CONSOLE_LEDGER_TOKEN: "short" })).toMatch(/CONSOLE_LEDGER_TOKEN: at least 16 characters/);
    const c = loadConfig({ ...tokens, CONSOLE_PORT: "", CONSOLE_OIDC_ISSUER: "" });
    expect(c).toMatchObject({
      host: "127.0.0.1",
      port: 8090,
      controlPlaneAddr: "127.0.0.1:50051",
      ledgerAddr: "127.0.0.1:50052",
      secureCookies: false,
      breakerThreshold: 5,
      breakerCooldownMs: 30_000,
    });
    expect(c.oidc).toBeUndefined();
    expect(c.secret.length).toBeGreaterThanOrEqual(32);
  });

  it("refuses a port that is not one, a short secret and a public URL that is not http(s), all at once", () => {
    const message = problems({ ...tokens, CONSOLE_PORT: "8o90", CONSOLE_SECRET: "abc", CONSOLE_PUBLIC_URL: "console.example.com", DATA_PLANE_BREAKER_THRESHOLD: "0" });
    expect(message).toMatch(/^invalid console configuration:/);
    expect(message).toContain('CONSOLE_PORT: a whole number from 0 to 65535, not "8o90"');
    expect(message).toContain("CONSOLE_SECRET: at least 16 characters");
    expect(message).toContain("CONSOLE_PUBLIC_URL: an http:// or https:// address");
    expect(message).toContain('DATA_PLANE_BREAKER_THRESHOLD: a whole number of at least 1, not "0"');
    expect(message).not.toContain("abc");
  });

  it("refuses a blank host (it once meant every interface) and a blank secret (once an empty key) rather than reading them as the defaults", () => {
    const message = problems({ ...tokens, CONSOLE_HOST: "", CONSOLE_SECRET: " " });
    expect(message).toContain("CONSOLE_HOST: must not be empty");
    expect(message).toContain("CONSOLE_SECRET: must not be empty");
  });

  it("signs in by OpenID Connect only with an issuer, a client id and the public URL; https sets Secure cookies", () => {
    expect(problems({ ...tokens, CONSOLE_OIDC_ISSUER: "https://id.example.com" })).toMatch(/CONSOLE_OIDC_CLIENT_ID: required[\s\S]*CONSOLE_PUBLIC_URL: required/);
    expect(problems({ ...tokens, CONSOLE_OIDC_CLIENT_ID: "console" })).toMatch(/CONSOLE_OIDC_ISSUER: required/);
    const c = loadConfig({ ...tokens, CONSOLE_OIDC_ISSUER: "https://id.example.com", CONSOLE_OIDC_CLIENT_ID: "console", CONSOLE_PUBLIC_URL: "https://console.example.com" });
    expect(c.oidc).toEqual({ issuer: "https://id.example.com", clientId: "console", clientSecret: "", publicUrl: "https://console.example.com" });
    expect(c.secureCookies).toBe(true);
  });
});
