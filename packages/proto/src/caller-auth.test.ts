import { describe, expect, it } from "vitest";
import * as grpc from "@grpc/grpc-js";
import { CallerAuthenticator, callerGuard, callerTokenProblems, mayCall, serverTlsProblems } from "./caller-auth.js";

const md = (authorization?: string) => {
  const m = new grpc.Metadata();
  if (authorization !== undefined) m.set("authorization", authorization);
  return m;
};

describe("CallerAuthenticator", () => {
  const auth = new CallerAuthenticator({ admin: ["admin-token-0123456789"], "data-plane": ["dp-old-token-0123456789", "dp-new-token-0123456789"] });

  it("names the identity of every configured token, old and new alike while a token is rotated", () => {
    expect(auth.identify("admin-token-0123456789")).toBe("admin");
    expect(auth.identify("dp-old-token-0123456789")).toBe("data-plane");
    expect(auth.identify("dp-new-token-0123456789")).toBe("data-plane");
  });

  it("knows no one without a token, with an empty one or with a near miss", () => {
    expect(auth.identify(undefined)).toBeUndefined();
    expect(auth.identify("")).toBeUndefined();
    expect(auth.identify("admin-token-012345678")).toBeUndefined();
    expect(auth.identify("admin-token-0123456789x")).toBeUndefined();
  });

  it("refuses one token for two identities", () => {
    expect(() => new CallerAuthenticator({ admin: ["shared-token-0123456789"], "data-plane": ["shared-token-0123456789"] })).toThrow(/admin and data-plane/);
    expect(callerTokenProblems({ admin: ["shared-token-0123456789"], "data-plane": ["shared-token-0123456789"] }, { admin: "X_ADMIN_TOKEN", "data-plane": "X_DATA_PLANE_TOKEN" })).toEqual([
      "X_DATA_PLANE_TOKEN: a token of X_ADMIN_TOKEN cannot also be a data-plane token",
    ]);
  });
});

describe("grants", () => {
  it("deny by default: an unlisted method or service is admin-only", () => {
    expect(mayCall("data-plane", "gateway.ledger.v1.LedgerService", "AcquireLease")).toBe(true);
    expect(mayCall("data-plane", "gateway.ledger.v1.LedgerService", "TopUp")).toBe(false);
    expect(mayCall("data-plane", "gateway.ledger.v1.LedgerService", "SomeNewMethod")).toBe(false);
    expect(mayCall("data-plane", "gateway.ledger.v1.LedgerService", "toString")).toBe(false);
    expect(mayCall("data-plane", "gateway.billing.v1.NewService", "Anything")).toBe(false);
    expect(mayCall("admin", "gateway.billing.v1.NewService", "Anything")).toBe(true);
    // The console: its sessions, an organization's reads and session-checked changes, and the
    // operators' top-ups, only with a grant signed for an operator's session (TopUp itself is the
    // admin token's); nothing of the hot path, no key or catalog change outside a session the
    // control-plane checks.
    expect(mayCall("console", "gateway.control.v1.AdminService", "GetConsoleSession")).toBe(true);
    expect(mayCall("console", "gateway.ledger.v1.LedgerService", "SpendSeries")).toBe(true);
    expect(mayCall("console", "gateway.ledger.v1.LedgerService", "TopUp")).toBe(false);
    expect(mayCall("console", "gateway.ledger.v1.LedgerService", "TopUpWithGrant")).toBe(true);
    expect(mayCall("console", "gateway.control.v1.AdminService", "ConsoleGrantTopUp")).toBe(true);
    expect(mayCall("console", "gateway.control.v1.AdminService", "ConsoleApproveMcpTool")).toBe(true);
    expect(mayCall("console", "gateway.control.v1.AdminService", "ConsoleSetOrgBudgets")).toBe(true);
    expect(mayCall("console", "gateway.control.v1.AdminService", "ConsoleSetEndUserBudget")).toBe(true);
    for (const [service, method] of [
      ["gateway.control.v1.AdminService", "CreateSignInLink"],
      ["gateway.control.v1.AdminService", "CreateKey"],
      ["gateway.control.v1.AdminService", "ApplyCatalog"],
      ["gateway.control.v1.AdminService", "ListMcpToolPins"],
      ["gateway.control.v1.AdminService", "ApproveMcpTool"],
      ["gateway.control.v1.AdminService", "SetOrgBudget"],
      ["gateway.control.v1.AdminService", "SetOrgBudgets"],
      ["gateway.control.v1.AdminService", "SetKeyBudget"],
      ["gateway.control.v1.AdminService", "SetEndUserBudget"],
      ["gateway.control.v1.AdminService", "CreateProject"],
      ["gateway.ledger.v1.LedgerService", "ListHolds"],
      ["gateway.ledger.v1.LedgerService", "AcquireLease"],
      ["gateway.ledger.v1.LedgerService", "CostReport"],
      ["gateway.control.v1.ControlService", "AuthenticateKey"],
    ] as const)
      expect(mayCall("console", service, method)).toBe(false);
  });

  it("the guard answers a missing or unknown token with unauthenticated_caller, a known caller outside its grants with caller_not_allowed", () => {
    const auth = new CallerAuthenticator({ admin: ["admin-token-0123456789"], "data-plane": ["dp-token-0123456789"] });
    const refused: string[] = [];
    const guard = callerGuard("gateway.ledger.v1.LedgerService", auth, (reason, method, identity) => refused.push(`${reason}:${method}:${identity ?? "-"}`));
    expect(() => guard(md(), "GetCredits")).toThrow(expect.objectContaining({ code: "unauthenticated_caller" }));
    expect(() => guard(md("Bearer nope-nope-nope-nope"), "GetCredits")).toThrow(expect.objectContaining({ code: "unauthenticated_caller" }));
    expect(() => guard(md("dp-token-0123456789"), "GetCredits")).toThrow(expect.objectContaining({ code: "unauthenticated_caller" }));
    expect(() => guard(md("Bearer dp-token-0123456789"), "TopUp")).toThrow(expect.objectContaining({ code: "caller_not_allowed" }));
    expect(() => guard(md("Bearer dp-token-0123456789"), "GetCredits")).not.toThrow();
    expect(() => guard(md("bearer admin-token-0123456789"), "TopUp")).not.toThrow();
    expect(refused).toEqual(["unauthenticated:GetCredits:-", "unauthenticated:GetCredits:-", "unauthenticated:GetCredits:-", "not_allowed:TopUp:data-plane"]);
  });
});

describe("serverTlsProblems", () => {
  it("needs a certificate with its key, and both for a client CA", () => {
    expect(serverTlsProblems("X_", {})).toEqual([]);
    expect(serverTlsProblems("X_", { X_TLS_CERT_FILE: "c", X_TLS_KEY_FILE: "k", X_TLS_CLIENT_CA_FILE: "ca" })).toEqual([]);
    expect(serverTlsProblems("X_", { X_TLS_CERT_FILE: "c" })).toHaveLength(1);
    expect(serverTlsProblems("X_", { X_TLS_CLIENT_CA_FILE: "ca" })).toEqual(["X_TLS_CLIENT_CA_FILE: mTLS needs X_TLS_CERT_FILE and X_TLS_KEY_FILE"]);
  });
});
