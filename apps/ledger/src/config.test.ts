import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

const base = { LEDGER_DATABASE_URL: "postgres://db/ledger", LEDGER_ADMIN_TOKEN: "0123456789abcdef" };

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    expect(loadConfig(base)).toMatchObject({
      dbSchema: "ledger",
      natsUrl: "nats://127.0.0.1:4222",
      grpcHost: "127.0.0.1",
      grpcPort: 50052,
      opsHost: "127.0.0.1",
      opsPort: 9465,
      logLevel: "info",
      leaseMaxTtlMs: 120_000,
      sweepIntervalMs: 1_000,
      consumerDurable: "ledger",
      usageWaitMaxMs: 5_000,
      exportPageRows: 1_000,
    });
  });

  it("reports every problem at once, naming each variable", () => {
    let message = "";
    try {
      loadConfig({ LEDGER_ADMIN_TOKEN: "short", LEDGER_GRPC_PORT: "70000", LEDGER_DB_SCHEMA: "Bad-Name" });
    } catch (err) {
      message = (err as Error).message;
    }
    for (const name of ["LEDGER_DATABASE_URL", "LEDGER_ADMIN_TOKEN", "LEDGER_GRPC_PORT", "LEDGER_DB_SCHEMA"]) expect(message).toContain(name);
  });

  it("treats an empty variable as unset, and port 0 as any free port", () => {
    expect(loadConfig({ ...base, LEDGER_GRPC_PORT: "", LEDGER_OPS_PORT: "0" })).toMatchObject({ grpcPort: 50052, opsPort: 0 });
    expect(() => loadConfig({ ...base, LEDGER_DATABASE_URL: "" })).toThrow(/LEDGER_DATABASE_URL: required/);
  });

  it("refuses a blank caller token, TLS file or host rather than reading it as unset (no authentication, plaintext, or loopback where it once meant every interface)", () => {
    expect(() => loadConfig({ ...base, LEDGER_CONSOLE_TOKEN: "" })).toThrow("LEDGER_CONSOLE_TOKEN: at least 16 characters each");
    expect(() => loadConfig({ ...base, LEDGER_TLS_CERT_FILE: "" })).toThrow("LEDGER_TLS_CERT_FILE: must not be empty");
    expect(() => loadConfig({ ...base, LEDGER_GRPC_HOST: "" })).toThrow("LEDGER_GRPC_HOST: must not be empty");
  });
});

describe("loadConfig: the ledger's NATS user", () => {
  it("takes a user and its password together; an empty pair is none", () => {
    expect(loadConfig({ ...base, LEDGER_NATS_USER: "ledger", LEDGER_NATS_PASSWORD: "Pw0123456789" }).natsCredentials).toEqual({ user: "ledger", pass: "Pw0123456789" });
    expect(loadConfig({ ...base, LEDGER_NATS_USER: "", LEDGER_NATS_PASSWORD: "" }).natsCredentials).toBeUndefined();
    expect(() => loadConfig({ ...base, LEDGER_NATS_USER: "ledger" })).toThrow(/LEDGER_NATS_USER: needs LEDGER_NATS_PASSWORD/);
  });
});

describe("loadConfig: numbers", () => {
  it("refuses numbers that are not digits or out of range, each by name and value", () => {
    expect(() => loadConfig({ ...base, LEDGER_BATCH_MAX: "5e2" })).toThrow('LEDGER_BATCH_MAX: a whole number of at least 1, not "5e2"');
    expect(() => loadConfig({ ...base, LEDGER_EXPORT_PAGE_ROWS: "10000" })).toThrow('LEDGER_EXPORT_PAGE_ROWS: a whole number from 1 to 5000, not "10000"');
    expect(loadConfig({ ...base, LEDGER_BATCH_MAX: " 250 " }).batchMax).toBe(250);
  });

  it("checks usage signatures only with keys, each long enough, and refuses a list set but empty", () => {
    expect(loadConfig(base).usageSigningKeys.size).toBe(0);
    expect(loadConfig({ ...base, LEDGER_USAGE_SIGNING_KEYS: "new-usage-signing-key-0123456789abcdef,old-usage-signing-key-0123456789abcdef" }).usageSigningKeys.size).toBe(2);
    expect(() => loadConfig({ ...base, LEDGER_USAGE_SIGNING_KEYS: "short" })).toThrow("LEDGER_USAGE_SIGNING_KEYS: each key at least 32 characters");
    // Set but holding no key would quietly take every usage message.
    expect(() => loadConfig({ ...base, LEDGER_USAGE_SIGNING_KEYS: " , " })).toThrow("LEDGER_USAGE_SIGNING_KEYS: no key in it");
  });
});
