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
