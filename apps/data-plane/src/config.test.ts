import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

const tokens = { DATA_PLANE_CONTROL_PLANE_TOKEN: "dp-control-token-0123456789", DATA_PLANE_LEDGER_TOKEN: "dp-ledger-token-0123456789" };

describe("loadConfig: the data-plane's gRPC credentials", () => {
  it("needs a caller token for the control-plane and one for the ledger", () => {
    expect(() => loadConfig({})).toThrow(/DATA_PLANE_CONTROL_PLANE_TOKEN: required[\s\S]*DATA_PLANE_LEDGER_TOKEN: required/);
    expect(() => loadConfig({ ...tokens, DATA_PLANE_LEDGER_TOKEN: "short" })).toThrow(/DATA_PLANE_LEDGER_TOKEN: at least 16 characters/);
    expect(loadConfig(tokens)).toMatchObject({ controlPlaneToken: tokens.DATA_PLANE_CONTROL_PLANE_TOKEN, ledgerToken: tokens.DATA_PLANE_LEDGER_TOKEN, grpcTls: undefined });
  });

  it("speaks TLS with a CA, presents a client certificate with its key, and refuses a certificate without one", () => {
    expect(loadConfig({ ...tokens, DATA_PLANE_GRPC_TLS_CA_FILE: "/ca.pem" }).grpcTls).toEqual({ caFile: "/ca.pem", certFile: undefined, keyFile: undefined });
    expect(loadConfig({ ...tokens, DATA_PLANE_GRPC_TLS_CA_FILE: "/ca.pem", DATA_PLANE_GRPC_TLS_CERT_FILE: "/c.pem", DATA_PLANE_GRPC_TLS_KEY_FILE: "/k.pem" }).grpcTls).toEqual({
      caFile: "/ca.pem",
      certFile: "/c.pem",
      keyFile: "/k.pem",
    });
    expect(() => loadConfig({ ...tokens, DATA_PLANE_GRPC_TLS_CERT_FILE: "/c.pem" })).toThrow(/DATA_PLANE_GRPC_TLS_CERT_FILE: needs DATA_PLANE_GRPC_TLS_KEY_FILE/);
  });
});

describe("loadConfig: the data-plane's NATS user", () => {
  it("takes a user and its password together; a half-set pair is refused by name, the password never shown", () => {
    expect(loadConfig(tokens).natsCredentials).toBeUndefined();
    expect(loadConfig({ ...tokens, DATA_PLANE_NATS_USER: "data-plane", DATA_PLANE_NATS_PASSWORD: "Pw0123456789" }).natsCredentials).toEqual({ user: "data-plane", pass: "Pw0123456789" });
    expect(() => loadConfig({ ...tokens, DATA_PLANE_NATS_PASSWORD: "Pw0123456789" })).toThrow(/DATA_PLANE_NATS_USER: needs DATA_PLANE_NATS_PASSWORD/);
    expect(() => loadConfig({ ...tokens, DATA_PLANE_NATS_PASSWORD: "Pw0123456789" })).not.toThrow(/Pw0123456789/);
  });
});

describe("loadConfig: numbers and empty variables", () => {
  it("reads an empty variable as unset (a manifest's blank line keeps the default port and retries, not 0)", () => {
    expect(loadConfig({ ...tokens, DATA_PLANE_PORT: "", DATA_PLANE_UPSTREAM_RETRIES: "", DATA_PLANE_PUBLIC_URL: "", DATA_PLANE_BODY_LIMIT_CHAT_BYTES: "" })).toMatchObject({
      port: 8080,
      upstreamRetries: 2,
      publicUrl: undefined,
    });
    expect(loadConfig({ ...tokens, DATA_PLANE_PORT: "0" }).port).toBe(0);
  });

  it("reads a body limit per route of the route table: responses and mcp take chat's unless set, the others the whole limit", () => {
    expect(loadConfig({ ...tokens, DATA_PLANE_BODY_LIMIT_BYTES: "5000", DATA_PLANE_BODY_LIMIT_CHAT_BYTES: "7000", DATA_PLANE_BODY_LIMIT_MCP_BYTES: "3000" }).bodyLimits).toEqual({
      chat: 7_000,
      messages: 5_000,
      responses: 7_000,
      embeddings: 5_000,
      images: 5_000,
      video: 5_000,
      mcp: 3_000,
    });
    expect(loadConfig({ ...tokens, DATA_PLANE_BODY_LIMIT_RESPONSES_BYTES: "2048" }).bodyLimits.responses).toBe(2_048);
    expect(() => loadConfig({ ...tokens, DATA_PLANE_BODY_LIMIT_MCP_BYTES: "10" })).toThrow(/DATA_PLANE_BODY_LIMIT_MCP_BYTES/);
  });

  it("refuses an empty TLS file or host rather than reading it as unset: a blank must not mean plaintext, or loopback where it once meant every interface", () => {
    expect(() => loadConfig({ ...tokens, DATA_PLANE_GRPC_TLS_CA_FILE: "" })).toThrow("DATA_PLANE_GRPC_TLS_CA_FILE: must not be empty");
    expect(() => loadConfig({ ...tokens, DATA_PLANE_GRPC_TLS_CA_FILE: "/ca.pem", DATA_PLANE_GRPC_TLS_KEY_FILE: " " })).toThrow("DATA_PLANE_GRPC_TLS_KEY_FILE: must not be empty");
    expect(() => loadConfig({ ...tokens, DATA_PLANE_HOST: "" })).toThrow("DATA_PLANE_HOST: must not be empty");
  });

  it("refuses a port out of range and numbers that are not digits, each by name", () => {
    expect(() => loadConfig({ ...tokens, DATA_PLANE_PORT: "99999" })).toThrow('DATA_PLANE_PORT: a whole number from 0 to 65535, not "99999"');
    expect(() => loadConfig({ ...tokens, DATA_PLANE_UPSTREAM_RETRIES: "2.5", DATA_PLANE_CONTROL_TIMEOUT_MS: "1e3" })).toThrow(
      /DATA_PLANE_CONTROL_TIMEOUT_MS: a whole number of at least 50, not "1e3"[\s\S]*DATA_PLANE_UPSTREAM_RETRIES: a whole number of at least 0, not "2.5"/,
    );
  });
});

describe("loadConfig: provider credentials come only from their own namespace", () => {
  it("resolves a credential_ref as DATA_PLANE_PROVIDER_KEY_<ref> or a file of the secrets folder, never as another variable of the process", () => {
    const dir = mkdtempSync(join(tmpdir(), "dp-secrets-"));
    writeFileSync(join(dir, "anthropic.key"), "sk-ant-from-file\n");
    writeFileSync(join(dir, "OPENAI"), "sk-from-file");
    const env = {
      ...tokens,
      DATA_PLANE_PROVIDER_KEY_OPENAI: "sk-openai",
      DATA_PLANE_NATS_PASSWORD: "nats-secret",
      DATA_PLANE_NATS_USER: "data-plane",
      PATH: "/usr/bin",
      DATA_PLANE_SECRETS_DIR: dir,
    };
    const c = loadConfig(env);
    // The variable first, then the file; both in the namespace.
    expect(c.resolveCredential("OPENAI")).toBe("sk-openai");
    expect(c.resolveCredential("anthropic.key")).toBe("sk-ant-from-file");
    // The attack: a catalog naming the data-plane's own secrets (or anything else it can see) gets nothing.
    for (const ref of ["DATA_PLANE_LEDGER_TOKEN", "DATA_PLANE_CONTROL_PLANE_TOKEN", "DATA_PLANE_NATS_PASSWORD", "PATH", "../OPENAI", "/etc/passwd", ".", ".."]) {
      expect(c.resolveCredential(ref), ref).toBeUndefined();
    }
  });
});

describe("loadConfig: video holds", () => {
  it("renews every unsettled job's hold three times a lease lifetime by default, and refuses a period a missed renewal would not survive", () => {
    expect(loadConfig(tokens).video).toMatchObject({ holdRenewMs: 20_000, holdConcurrency: 8, refreshConcurrency: 4 });
    expect(loadConfig({ ...tokens, DATA_PLANE_LEASE_TTL_MS: "3000" }).video.holdRenewMs).toBe(1_000);
    expect(loadConfig({ ...tokens, DATA_PLANE_LEASE_TTL_MS: "3000", DATA_PLANE_VIDEO_HOLD_RENEW_MS: "1500" }).video.holdRenewMs).toBe(1_500);
    expect(() => loadConfig({ ...tokens, DATA_PLANE_LEASE_TTL_MS: "3000", DATA_PLANE_VIDEO_HOLD_RENEW_MS: "1501" })).toThrow(
      /DATA_PLANE_VIDEO_HOLD_RENEW_MS: must be at most half of DATA_PLANE_LEASE_TTL_MS/,
    );
  });
});
