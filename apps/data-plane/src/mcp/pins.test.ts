import { describe, expect, it } from "vitest";
import { mcpToolDefinition, type McpServer, type ReportMcpToolsRequest } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { pinRefusal, pinStates } from "./pins.js";
import type { ListedTool } from "./upstream.js";

/** A replica's context as pins.ts uses it: what it reports, counts and logs. */
function replica() {
  const seen = new Set<string>();
  const reports: ReportMcpToolsRequest[] = [];
  const counted: string[] = [];
  const ctx = {
    mcp: { firstSight: (id: string) => !seen.has(id) && Boolean(seen.add(id)), forget: (id: string) => seen.delete(id) },
    control: { ReportMcpTools: async (r: ReportMcpToolsRequest) => void reports.push(r) },
    metrics: {
      mcpDefinitionChanged: { inc: (l: { tool: string }) => void counted.push(`changed ${l.tool}`) },
      mcpDefinitionTooLarge: { inc: (l: { tool: string }) => void counted.push(`too_large ${l.tool}`) },
    },
    log: { warn: () => undefined },
  } as unknown as DataPlaneContext;
  return { ctx, reports, counted };
}

const listed = (tool: Record<string, unknown> & { name: string }): ListedTool => ({ tool: tool as unknown as ListedTool["tool"], definition: mcpToolDefinition(tool) });
const search = { name: "search", description: "Searches.", inputSchema: { type: "object" }, _meta: { hint: "v1" } };
const pinnedSearch = mcpToolDefinition(search);

function server(tools: Array<Partial<McpServer["tools"][number]> & { name: string }>): McpServer {
  return { name: "s", url: "https://mcp.example.com/mcp", tools: tools.map((t) => ({ price_minor: 0, definition_json: "", digest: "", awaiting_approval: false, ...t })) } as McpServer;
}

describe("pinStates", () => {
  it("at a server's first use, shows the canonical object it reports (never the upstream's own), and reports the listing once, names and all", () => {
    const { ctx, reports } = replica();
    const upstream = { ...search, extra: undefined };
    const listing = [listed(upstream), listed({ name: "unoffered", description: "x", inputSchema: {} })];
    const states = pinStates(ctx, server([{ name: "search" }]), listing);
    expect([...states.keys()]).toEqual(["search"]);
    const shown = states.get("search")!.shown();
    expect(shown).toEqual({ name: "search", ...JSON.parse(pinnedSearch.json) });
    expect(shown).not.toBe(upstream);
    pinStates(ctx, server([{ name: "search" }]), listing);
    expect(reports).toEqual([{ server: "s", tools: [{ name: "search", definition_json: pinnedSearch.json }], listed: ["search", "unoffered"] }]);
  });

  it("shows the pinned object while the server serves another (a changed _meta), and refuses its calls", () => {
    const { ctx, counted } = replica();
    const s = server([{ name: "search", definition_json: pinnedSearch.json, digest: pinnedSearch.digest }]);
    const listing = [listed({ ...search, _meta: { hint: "v2" } })];
    const state = pinStates(ctx, s, listing).get("search")!;
    expect(state.refusal).toBe("tool_definition_changed");
    expect((state.shown() as Record<string, unknown> | undefined)?._meta).toEqual({ hint: "v1" });
    expect(pinRefusal(ctx, s, listing, "search", "s__search")?.data).toEqual({ code: "tool_definition_changed" });
    expect(counted).toEqual(["changed search"]);
  });

  it("lists nothing of a tool awaiting approval or over 64 KiB, refuses both, and reports only the first", () => {
    const { ctx, reports, counted } = replica();
    const s = server([{ name: "renamed", awaiting_approval: true }, { name: "huge" }, { name: "unlisted", awaiting_approval: true }]);
    const listing = [listed({ name: "renamed", description: "Reads.", inputSchema: {} }), listed({ name: "huge", description: "x".repeat(70_000), inputSchema: {} })];
    const states = pinStates(ctx, s, listing);
    expect(states.get("renamed")).toMatchObject({ refusal: "tool_definition_unapproved" });
    expect(states.get("huge")).toMatchObject({ refusal: "tool_definition_too_large" });
    expect([...states.values()].map((p) => p.shown())).toEqual([undefined, undefined]);
    expect(reports.map((r) => r.tools.map((t) => t.name))).toEqual([["renamed"]]);
    expect(counted.sort()).toEqual(["changed renamed", "too_large huge"]);
    // A tool the upstream does not list is refused only while it waits for approval.
    expect(pinRefusal(ctx, s, listing, "unlisted", "unlisted")?.data.code).toBe("tool_definition_unapproved");
    expect(pinRefusal(ctx, server([{ name: "other" }]), listing, "other", "other")).toBeUndefined();
  });
});
