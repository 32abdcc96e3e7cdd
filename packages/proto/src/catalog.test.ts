import { describe, expect, it } from "vitest";
import { mcpToolDefinition } from "./catalog.js";

const tool = { name: "search", description: "Searches.", inputSchema: { type: "object", properties: { q: { type: "string" } } } };

describe("mcpToolDefinition (what a pin covers)", () => {
  it("covers every field a caller is sent but the name: a changed _meta, icons or unknown field is another definition", () => {
    const pinned = mcpToolDefinition(tool).digest;
    expect(mcpToolDefinition({ ...tool, _meta: { "vendor/hint": "x" } }).digest).not.toBe(pinned);
    expect(mcpToolDefinition({ ...tool, icons: [{ src: "https://example.com/i.png" }] }).digest).not.toBe(pinned);
    expect(mcpToolDefinition({ ...tool, execution: { taskSupport: "optional" } }).digest).not.toBe(pinned);
    // The name is the pin's key, not part of its definition.
    expect(mcpToolDefinition({ ...tool, name: "other" }).digest).toBe(pinned);
  });

  it("is canonical: key order and undefined fields do not change it, and its JSON digests to itself", () => {
    const { json, digest } = mcpToolDefinition(tool);
    expect(mcpToolDefinition({ inputSchema: { properties: { q: { type: "string" } }, type: "object" }, description: "Searches.", title: undefined, name: "search" }).digest).toBe(digest);
    expect(mcpToolDefinition(JSON.parse(json) as Record<string, unknown>)).toEqual({ json, digest });
    expect(JSON.parse(json)).toEqual({ description: "Searches.", inputSchema: tool.inputSchema });
  });
});
