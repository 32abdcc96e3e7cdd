import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

const base = { CONTROL_PLANE_DATABASE_URL: "postgres://db/control", CONTROL_PLANE_ADMIN_TOKEN: "admin-token-0123456789" };
const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return "";
  } catch (err) {
    return (err as Error).message;
  }
};

describe("loadConfig: caller tokens and TLS", () => {
  it("reads a comma-separated token list per identity, so a token can be rotated; no data-plane token means none is accepted", () => {
    expect(loadConfig({ ...base, CONTROL_PLANE_DATA_PLANE_TOKEN: " dp-old-token-0123456789 , dp-new-token-0123456789 " }).callerTokens).toEqual({
      admin: ["admin-token-0123456789"],
      "data-plane": ["dp-old-token-0123456789", "dp-new-token-0123456789"],
      console: [],
    });
    expect(loadConfig({ ...base, CONTROL_PLANE_CONSOLE_TOKEN: "console-token-0123456789" }).callerTokens.console).toEqual(["console-token-0123456789"]);
    expect(loadConfig(base)).toMatchObject({ callerTokens: { admin: ["admin-token-0123456789"], "data-plane": [] }, tls: undefined });
  });

  it("refuses short tokens, one token for two identities and half a TLS setup, all at once", () => {
    const message = problems({ ...base, CONTROL_PLANE_DATA_PLANE_TOKEN: "admin-token-0123456789", CONTROL_PLANE_TLS_CLIENT_CA_FILE: "/ca.pem" });
    expect(message).toContain("CONTROL_PLANE_DATA_PLANE_TOKEN: a token of CONTROL_PLANE_ADMIN_TOKEN cannot also be a data-plane token");
    expect(message).toContain("CONTROL_PLANE_TLS_CLIENT_CA_FILE: mTLS needs");
    expect(problems({ ...base, CONTROL_PLANE_ADMIN_TOKEN: "long-enough-token-0123,short" })).toContain("CONTROL_PLANE_ADMIN_TOKEN");
    expect(problems({ ...base, CONTROL_PLANE_TLS_CERT_FILE: "/cert.pem" })).toContain("CONTROL_PLANE_TLS_CERT_FILE: needs CONTROL_PLANE_TLS_KEY_FILE");
    expect(problems({ ...base, CONTROL_PLANE_TLS_KEY_FILE: "" })).toContain("CONTROL_PLANE_TLS_KEY_FILE: must not be empty");
    expect(problems({ ...base, CONTROL_PLANE_UNAUTHENTICATED_CALLERS: "admin" })).toContain("CONTROL_PLANE_UNAUTHENTICATED_CALLERS: the only identity");
  });

  it("serves TLS with a certificate and key, and requires client certificates with a client CA", () => {
    const tls = { CONTROL_PLANE_TLS_CERT_FILE: "/cert.pem", CONTROL_PLANE_TLS_KEY_FILE: "/key.pem" };
    expect(loadConfig({ ...base, ...tls }).tls).toEqual({ certFile: "/cert.pem", keyFile: "/key.pem", clientCaFile: undefined });
    expect(loadConfig({ ...base, ...tls, CONTROL_PLANE_TLS_CLIENT_CA_FILE: "/ca.pem" }).tls).toEqual({ certFile: "/cert.pem", keyFile: "/key.pem", clientCaFile: "/ca.pem" });
  });
});

describe("loadConfig: the control-plane's NATS user", () => {
  it("takes a user and its password together, and reports a half-set pair with the other problems", () => {
    expect(loadConfig({ ...base, CONTROL_PLANE_NATS_USER: "control-plane", CONTROL_PLANE_NATS_PASSWORD: "Pw0123456789" }).natsCredentials).toEqual({ user: "control-plane", pass: "Pw0123456789" });
    const message = problems({ ...base, CONTROL_PLANE_NATS_USER: "control-plane", CONTROL_PLANE_TLS_CERT_FILE: "/cert.pem" });
    expect(message).toContain("CONTROL_PLANE_NATS_USER: needs CONTROL_PLANE_NATS_PASSWORD");
    expect(message).toContain("CONTROL_PLANE_TLS_CERT_FILE: needs CONTROL_PLANE_TLS_KEY_FILE");
  });
});

describe("loadConfig: numbers and empty variables", () => {
  it("reads an empty variable as unset (a blank port keeps its default rather than any free port), but refuses an empty caller token or host", () => {
    expect(loadConfig({ ...base, CONTROL_PLANE_GRPC_PORT: "", CONTROL_PLANE_DB_POOL_MAX: "" })).toMatchObject({ grpcPort: 50051, dbPoolMax: 10 });
    expect(problems({ ...base, CONTROL_PLANE_DATABASE_URL: "" })).toContain("CONTROL_PLANE_DATABASE_URL: required: a PostgreSQL connection string");
    expect(problems({ ...base, CONTROL_PLANE_DATA_PLANE_TOKEN: "" })).toContain("CONTROL_PLANE_DATA_PLANE_TOKEN: at least 16 characters each");
    expect(problems({ ...base, CONTROL_PLANE_GRPC_HOST: "" })).toContain("CONTROL_PLANE_GRPC_HOST: must not be empty");
  });

  it("refuses ports out of range and numbers that are not digits, each by name", () => {
    const message = problems({ ...base, CONTROL_PLANE_GRPC_PORT: "70000", CONTROL_PLANE_OPS_PORT: "-1", CONTROL_PLANE_DB_POOL_MAX: "0" });
    expect(message).toContain('CONTROL_PLANE_GRPC_PORT: a whole number from 0 to 65535, not "70000"');
    expect(message).toContain('CONTROL_PLANE_OPS_PORT: a whole number from 0 to 65535, not "-1"');
    expect(message).toContain('CONTROL_PLANE_DB_POOL_MAX: a whole number of at least 1, not "0"');
  });
});

describe("loadConfig: alert webhooks", () => {
  it("has no secrets key by default (no webhook can be set), delivers with a 10 s deadline and retries from 5 s to 1 h for a day", () => {
    expect(loadConfig(base)).toMatchObject({
      secretsKey: undefined,
      webhooks: { allowHosts: [], timeoutMs: 10_000, retryBaseMs: 5_000, retryMaxMs: 3_600_000, giveUpMs: 86_400_000 },
    });
  });

  it("takes a secrets key of 32 characters or more and allowlisted hosts by name or address; refuses the rest, all at once", () => {
    const c = loadConfig({ ...base, CONTROL_PLANE_SECRETS_KEY: "s".repeat(32), CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: "127.0.0.1, Receiver.Local ,[::1]" });
    expect(c.secretsKey).toBe("s".repeat(32));
    expect(c.webhooks.allowHosts).toEqual(["127.0.0.1", "receiver.local", "::1"]);
    const message = problems({ ...base, CONTROL_PLANE_SECRETS_KEY: "short", CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: "http://127.0.0.1:8080", CONTROL_PLANE_WEBHOOK_TIMEOUT_MS: "1e3" });
    expect(message).toContain("CONTROL_PLANE_SECRETS_KEY: at least 32 characters");
    expect(message).toContain("CONTROL_PLANE_WEBHOOK_ALLOW_HOSTS: 'http://127.0.0.1:8080' is not a host name or address");
    expect(message).toContain("CONTROL_PLANE_WEBHOOK_TIMEOUT_MS: a whole number");
    // A blank key is a mistake in a manifest, not "no key".
    expect(problems({ ...base, CONTROL_PLANE_SECRETS_KEY: " " })).toContain("CONTROL_PLANE_SECRETS_KEY: must not be empty");
  });
});
