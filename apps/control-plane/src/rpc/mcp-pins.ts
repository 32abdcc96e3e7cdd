import { GatewayError } from "@gateway/errors";
import { sql } from "@gateway/db";
import {
  mcpToolDefinition,
  type ListMcpToolPinsRequest,
  type ListMcpToolPinsResponse,
  type McpToolPin,
  type McpToolRef,
  type ReportMcpToolsRequest,
  type ReportMcpToolsResponse,
} from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { nextCatalogVersion } from "../catalog/price-sheets.js";

const MAX_DEFINITION = 64 * 1024;

const bumpCatalog = async (ctx: ControlContext) => {
  const version = await ctx.db.transaction().execute((trx) => nextCatalogVersion(ctx, trx));
  ctx.publishChange({ kind: "catalog", catalog_version: version });
};

/**
 * The definitions a data-plane saw an MCP upstream serve for the tools the gateway offers
 * (docs/mcp.md, "Pinned definitions"): a tool's first definition is pinned (trust on first use),
 * one that differs from the pinned one is kept pending an operator's approval. The digest is
 * computed here from the definition, not taken from the caller. A new pin or pending change bumps
 * the catalog so every replica learns it.
 */
export function reportMcpTools(ctx: ControlContext) {
  return async (req: ReportMcpToolsRequest): Promise<ReportMcpToolsResponse> => {
    const server = await ctx.db.selectFrom("mcp_servers").select(["name", "tools"]).where("name", "=", req.server).executeTakeFirst();
    if (!server) throw new GatewayError("not_found", `MCP server '${req.server}' is not in the catalog`);
    let pinned = 0;
    let changed = 0;
    for (const t of req.tools.slice(0, 200)) {
      if (!server.tools.some((o) => o.name === t.name) || t.definition_json.length > MAX_DEFINITION) continue;
      let def: Record<string, unknown>;
      try {
        def = JSON.parse(t.definition_json) as Record<string, unknown>;
      } catch {
        continue;
      }
      const { json, digest } = mcpToolDefinition(def);
      const r = await sql<{ inserted: boolean; pending: boolean }>`
        INSERT INTO mcp_tool_pins (server, tool, definition, digest, approved_by) VALUES (${server.name}, ${t.name}, ${json}::jsonb, ${digest}, 'first use')
        ON CONFLICT (server, tool) DO UPDATE SET pending_definition = ${json}::jsonb, pending_digest = ${digest}, pending_since = now()
          WHERE mcp_tool_pins.digest <> ${digest} AND mcp_tool_pins.pending_digest IS DISTINCT FROM ${digest}
        RETURNING (xmax = 0) AS inserted, (pending_digest IS NOT NULL) AS pending`.execute(ctx.db);
      const row = r.rows[0];
      if (!row) continue;
      if (row.inserted) pinned++;
      else if (row.pending) {
        changed++;
        ctx.log.warn({ server: server.name, tool: t.name, digest }, "an MCP upstream serves a changed tool definition: calls refused until an operator approves it (gatewayctl mcp approve)");
      }
    }
    if (pinned + changed > 0) await bumpCatalog(ctx);
    return { pinned, changed };
  };
}

type PinRow = {
  server: string;
  tool: string;
  digest: string;
  definition: unknown;
  approved_at: Date;
  approved_by: string;
  pending_digest: string | null;
  pending_definition: unknown;
  pending_since: Date | null;
};
const toPin = (r: PinRow): McpToolPin => ({
  server: r.server,
  tool: r.tool,
  digest: r.digest,
  definition_json: JSON.stringify(r.definition),
  approved_at_ms: r.approved_at.getTime(),
  approved_by: r.approved_by,
  pending_digest: r.pending_digest ?? "",
  pending_definition_json: r.pending_definition === null ? "" : JSON.stringify(r.pending_definition),
  pending_since_ms: r.pending_since?.getTime() ?? 0,
});

export function listMcpToolPins(ctx: ControlContext) {
  return async (req: ListMcpToolPinsRequest): Promise<ListMcpToolPinsResponse> => {
    const rows = await ctx.db
      .selectFrom("mcp_tool_pins")
      .selectAll()
      .$if(req.server !== "", (b) => b.where("server", "=", req.server))
      .orderBy("server")
      .orderBy("tool")
      .execute();
    return { pins: rows.map((r) => toPin(r as PinRow)) };
  };
}

/** Pins a tool's pending definition (an operator read it and approves it); calls to the tool resume on every replica. */
export function approveMcpTool(ctx: ControlContext) {
  return async (req: McpToolRef): Promise<McpToolPin> => {
    const r = await sql<PinRow>`
      UPDATE mcp_tool_pins SET definition = pending_definition, digest = pending_digest, approved_at = now(), approved_by = 'operator',
        pending_definition = NULL, pending_digest = NULL, pending_since = NULL
      WHERE server = ${req.server} AND tool = ${req.tool} AND pending_digest IS NOT NULL
      RETURNING *`.execute(ctx.db);
    const row = r.rows[0];
    if (!row) throw new GatewayError("not_found", `no change of '${req.tool}' on MCP server '${req.server}' is waiting for approval`);
    await bumpCatalog(ctx);
    return toPin(row);
  };
}
