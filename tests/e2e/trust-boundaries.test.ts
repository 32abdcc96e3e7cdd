import Anthropic from "@anthropic-ai/sdk";
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

describe("count_tokens", () => {
  it("refuses what messages refuses: a document the provider would fetch, MCP servers it would call, both free and unrecorded", async () => {
    const anthropic = new Anthropic({ baseURL: stack.baseUrl().replace(/\/v1$/, ""), apiKey: stack.demo.secret, maxRetries: 0 });
    const sent = () => stack.fake.requests.filter((r) => r.path.endsWith("/count_tokens")).length;
    const before = sent();
    const byUrl = anthropic.messages.countTokens({
      model: "gw-claude",
      messages: [{ role: "user", content: [{ type: "document", source: { type: "url", url: "https://example.com/huge.pdf" } }] }],
    });
    await expect(byUrl).rejects.toMatchObject({ status: 400, error: { error: { type: "invalid_request_error" } } });
    await expect(byUrl).rejects.toThrow(/document/);
    const mcp = anthropic.beta.messages.countTokens({
      model: "gw-claude",
      messages: [{ role: "user", content: "use the tools" }],
      mcp_servers: [{ type: "url", url: "https://mcp.example.com/sse", name: "x" }],
      betas: ["mcp-client-2025-04-04"],
    });
    await expect(mcp).rejects.toMatchObject({ status: 400 });
    await expect(mcp).rejects.toThrow(/mcp_servers/);
    expect(sent()).toBe(before);
    // What messages accepts is still counted by the provider.
    expect(await anthropic.messages.countTokens({ model: "gw-claude", messages: [{ role: "user", content: "count these four words" }] })).toEqual({ input_tokens: 4 });
    expect(sent()).toBe(before + 1);
  });
});
