import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { adminService, controlService, createClient, ledgerService } from "@gateway/proto";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * The upgrade window from a release without caller credentials (CONTROL_PLANE_ / LEDGER_
 * UNAUTHENTICATED_CALLERS=data-plane): a caller presenting nothing is taken as the data-plane, with
 * the data-plane's grants only, and counted; a wrong token is still refused.
 */
let stack: Stack;

beforeAll(async () => {
  stack = await startStack("upgrade_window", { serviceEnv: { CONTROL_PLANE_UNAUTHENTICATED_CALLERS: "data-plane", LEDGER_UNAUTHENTICATED_CALLERS: "data-plane" } });
});
afterAll(async () => {
  await stack?.stop();
});

describe("callers without credentials during an upgrade window", () => {
  it("reach the data-plane's methods only, a wrong token is refused, and each admitted call is counted", async () => {
    const ledgerAddr = `127.0.0.1:${stack.ledger().grpcPort}`;
    const controlAddr = `127.0.0.1:${stack.control.grpcPort}`;
    const ledger = createClient(ledgerService(), ledgerAddr, { timeoutMs: 5_000 });
    const control = createClient(controlService(), controlAddr, { timeoutMs: 5_000 });
    const admin = createClient(adminService(), controlAddr, { timeoutMs: 5_000 });
    const wrong = createClient(ledgerService(), ledgerAddr, { timeoutMs: 5_000, metadata: { authorization: "Bearer not-a-token-anyone-holds" } });
    try {
      // As the previous release's data-plane calls them: no metadata at all.
      const credits = await ledger.GetCredits({ org_id: stack.demo.orgId });
      expect(Number(credits.balance_minor)).toBeGreaterThan(0);
      expect((await control.GetCatalog({ known_version: 0 })).version).toBeGreaterThan(0);
      // Never more than the data-plane may do.
      await expect(ledger.TopUp({ org_id: stack.demo.orgId, amount_minor: 1, idempotency_key: "window" })).rejects.toMatchObject({ code: "caller_not_allowed" });
      await expect(admin.ListOrgs({})).rejects.toMatchObject({ code: "caller_not_allowed" });
      await expect(wrong.GetCredits({ org_id: stack.demo.orgId })).rejects.toMatchObject({ code: "unauthenticated_caller" });
    } finally {
      for (const c of [ledger, control, admin, wrong]) c.close();
    }
    const ledgerMetrics = await (await fetch(`http://127.0.0.1:${stack.ledger().opsPort}/metrics`)).text();
    expect(ledgerMetrics).toMatch(/ledger_rpc_unauthenticated_calls_total\{method="GetCredits"[^}]*\} [1-9]/);
    const controlMetrics = await (await fetch(`http://127.0.0.1:${stack.control.opsPort}/metrics`)).text();
    expect(controlMetrics).toMatch(/control_rpc_unauthenticated_calls_total\{method="GetCatalog"[^}]*\} [1-9]/);
  });
});
