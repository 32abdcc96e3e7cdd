import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startStack, type Stack } from "../support/stack.ts";

/**
 * Trust boundaries (docs/security.md): each test is an attack that worked before the boundary was
 * drawn.
 */
let stack: Stack;
beforeAll(async () => {
  stack = await startStack("trust_boundaries");
});
afterAll(async () => {
  await stack?.stop();
});

describe("provider credentials", () => {
  it("a catalog cannot name the data-plane's own secrets as a provider's or an MCP server's credential", async () => {
    for (const ref of ["DATA_PLANE_LEDGER_TOKEN", "DATA_PLANE_NATS_PASSWORD", "LEDGER_ADMIN_TOKEN"]) {
      await expect(stack.applyCatalog({ providers: [{ code: "thief", kind: "openai-compatible", base_url: `${stack.fake.url}/v1`, credential_ref: ref }] }), ref).rejects.toThrow(
        /names a service's own setting/,
      );
      await expect(stack.applyCatalog({ mcp_servers: [{ name: "thief", url: `${stack.fake.url}/mcp`, credential_ref: ref, tools: [] }] }), ref).rejects.toThrow(/names a service's own setting/);
    }
    await expect(stack.applyCatalog({ providers: [{ code: "thief", kind: "openai-compatible", base_url: `${stack.fake.url}/v1`, credential_ref: "../ledger-token" }] })).rejects.toThrow(
      /a provider key's name/,
    );
  });
});
