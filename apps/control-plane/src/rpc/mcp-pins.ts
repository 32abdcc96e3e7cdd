import { GatewayError } from "@gateway/errors";
import { sql, type Kysely } from "@gateway/db";
import {
  MCP_MAX_DEFINITION_BYTES,
  mcpToolDefinition,
  type ListMcpToolPinsRequest,
  type ListMcpToolPinsResponse,
  type McpToolPin,
  type McpToolRef,
  type ReportMcpToolsRequest,
  type ReportMcpToolsResponse,
} from "@gateway/proto";
import type { Selectable } from "kysely";
import type { ControlContext } from "../context.js";
import type { ControlDb, McpToolPinsTable } from "../db/schema.js";
import { nextCatalogVersion } from "../catalog/price-sheets.js";

const bumpCatalog = async (ctx: ControlContext) => {
  const version = await ctx.db.transaction().execute((trx) => nextCatalogVersion(ctx, trx));
  ctx.publishChange({ kind: "catalog", catalog_version: version });
};

/** At most this many tool names kept as a server's baseline, each at most 128 characters. */
const MAX_BASELINE = 1_000;

/** The digest pins had before they covered every field: of a definition's title, description, schemas and annotations. */
const fiveFieldsDigest = (d: Record<string, unknown>) =>
  mcpToolDefinition({ title: d.title, description: d.description, inputSchema: d.inputSchema, outputSchema: d.outputSchema, annotations: d.annotations }).digest;

/**
 * What a reported definition does to its tool's pin (`row`, if the tool has one): pins it (a first
 * sight that may be trusted), re-pins it with every field (a pin of five fields, within its upgrade
 * window, whose five fields are served unchanged), keeps it pending (a change, or a new tool), or
 * nothing (the pinned or pending one; an older replica's five-field view of an upgraded pin).
 */
function outcomeOf(row: Selectable<McpToolPinsTable> | undefined, def: Record<string, unknown>, digest: string, trusted: boolean): "none" | "pinned" | "upgraded" | "changed" | "new" {
  if (!row) return trusted ? "pinned" : "new";
  if (row.digest === digest || row.pending_digest === digest) return "none";
  if (row.digest && row.five_fields_until && row.five_fields_until > new Date() && fiveFieldsDigest(def) === row.digest) return "upgraded";
  if (row.approved_by === "upgrade" && row.definition && fiveFieldsDigest(row.definition as Record<string, unknown>) === digest) return "none";
  return row.digest ? "changed" : "new";
}

/**
 * The definitions a data-plane saw an MCP upstream serve for the tools the gateway offers
 * (docs/mcp.md, "Pinned definitions"). Trust on first use is the server's, once: its first report
 * pins the tools it carries, and keeps the names of every tool the upstream listed as the server's
 * baseline. After that, a definition that differs from a tool's pinned one is kept pending an
 * operator's approval, and so is the definition of a tool new since the baseline (a rename, a
 * removal followed by another tool) — with no approved definition, such a tool is neither listed
 * nor called until then; a tool the baseline names (one the catalog offers later) is pinned on
 * first use. The digest is computed here from the definition, not taken from the caller; a
 * definition over MCP_MAX_DEFINITION_BYTES is not kept. A new pin or pending change bumps the
 * catalog so every replica learns it.
 */
export function reportMcpTools(ctx: ControlContext) {
  return async (req: ReportMcpToolsRequest): Promise<ReportMcpToolsResponse> => {
    const r = await ctx.db.transaction().execute(async (trx) => {
      // One report at a time per server: its baseline is recorded once (the catalog then says which tools wait).
      const server = await trx.selectFrom("mcp_servers").select(["name", "tools"]).where("name", "=", req.server).forUpdate().executeTakeFirst();
      if (!server) throw new GatewayError("not_found", `MCP server '${req.server}' is not in the catalog`);
      const baseline = await trx.selectFrom("mcp_server_baselines").select("tools").where("server", "=", server.name).executeTakeFirst();
      if (!baseline) {
        const names = [...new Set([...req.listed, ...req.tools.map((t) => t.name)])].filter((n) => n.length <= 128).slice(0, MAX_BASELINE);
        await trx.insertInto("mcp_server_baselines").values({ server: server.name, tools: names }).execute();
      }
      const known = new Set(baseline?.tools ?? []);
      const rows = await trx.selectFrom("mcp_tool_pins").selectAll().where("server", "=", server.name).execute();
      let pinned = 0;
      let changed = 0;
      // One definition per tool (the last, if a report names one twice).
      for (const t of new Map(req.tools.slice(0, 200).map((d) => [d.name, d])).values()) {
        if (!server.tools.some((o) => o.name === t.name)) continue;
        if (Buffer.byteLength(t.definition_json) > MCP_MAX_DEFINITION_BYTES) {
          ctx.log.warn(
            { server: server.name, tool: t.name, bytes: Buffer.byteLength(t.definition_json) },
            "an MCP upstream serves a tool definition over the size limit: not kept (the tool is not served)",
          );
          continue;
        }
        let def: Record<string, unknown>;
        try {
          def = JSON.parse(t.definition_json) as Record<string, unknown>;
        } catch {
          continue;
        }
        const { json, digest } = mcpToolDefinition(def);
        const row = rows.find((r) => r.tool === t.name);
        // A tool seen for the first time is pinned at the server's first use or when its baseline names it; otherwise it waits.
        const outcome = outcomeOf(row, def, digest, !baseline || known.has(t.name));
        const key = sql`server = ${server.name} AND tool = ${t.name}`;
        switch (outcome) {
          case "none":
            continue;
          case "pinned":
            await sql`INSERT INTO mcp_tool_pins (server, tool, definition, digest, approved_at, approved_by)
              VALUES (${server.name}, ${t.name}, ${json}::jsonb, ${digest}, now(), 'first use')`.execute(trx);
            pinned++;
            continue;
          case "upgraded":
            await sql`UPDATE mcp_tool_pins SET definition = ${json}::jsonb, digest = ${digest}, approved_at = now(), approved_by = 'upgrade', five_fields_until = NULL,
              pending_definition = NULL, pending_digest = NULL, pending_since = NULL WHERE ${key}`.execute(trx);
            ctx.log.info({ server: server.name, tool: t.name, digest }, "an MCP tool pinned before pins covered every field: re-pinned with its other fields (its pinned fields unchanged)");
            pinned++;
            continue;
          case "changed":
          case "new":
            if (row) await sql`UPDATE mcp_tool_pins SET pending_definition = ${json}::jsonb, pending_digest = ${digest}, pending_since = now() WHERE ${key}`.execute(trx);
            else
              await sql`INSERT INTO mcp_tool_pins (server, tool, pending_definition, pending_digest, pending_since)
                VALUES (${server.name}, ${t.name}, ${json}::jsonb, ${digest}, now())`.execute(trx);
            changed++;
            ctx.log.warn(
              { server: server.name, tool: t.name, digest, new_tool: outcome === "new" },
              outcome === "changed"
                ? "an MCP upstream serves a changed tool definition: calls refused until an operator approves it (gatewayctl mcp approve)"
                : "an MCP upstream serves a tool new since its first listing (a rename, or a tool added): not served until an operator approves it (gatewayctl mcp approve)",
            );
        }
      }
      return { pinned, changed, version: pinned + changed > 0 || !baseline ? await nextCatalogVersion(ctx, trx) : undefined };
    });
    if (r.version !== undefined) ctx.publishChange({ kind: "catalog", catalog_version: r.version });
    return { pinned: r.pinned, changed: r.changed };
  };
}

type PinRow = {
  server: string;
  tool: string;
  digest: string | null;
  definition: unknown;
  approved_at: Date | null;
  approved_by: string | null;
  pending_digest: string | null;
  pending_definition: unknown;
  pending_since: Date | null;
};
/** A pin as the admin API shows it: "" and 0 for what it lacks (a new tool has no approved definition; a pin may have no pending one). */
const toPin = (r: PinRow): McpToolPin => ({
  server: r.server,
  tool: r.tool,
  digest: r.digest ?? "",
  definition_json: r.definition === null ? "" : JSON.stringify(r.definition),
  approved_at_ms: r.approved_at?.getTime() ?? 0,
  approved_by: r.approved_by ?? "",
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

/**
 * The tools whose definition waits for an operator's approval, the longest waiting first, at most
 * `limit` (each carries two definitions of up to 64 KiB: a gRPC answer stays well under 4 MiB).
 */
export async function pendingMcpTools(db: Kysely<ControlDb>, limit: number): Promise<McpToolPin[]> {
  const rows = await db.selectFrom("mcp_tool_pins").selectAll().where("pending_digest", "is not", null).orderBy("pending_since").orderBy("server").orderBy("tool").limit(limit).execute();
  return rows.map((r) => toPin(r as PinRow));
}

/**
 * Pins `ref`'s pending definition if its digest begins with `read` ("" = whichever is pending),
 * approved by `by`; undefined when no such definition waits. The caller bumps the catalog version.
 */
export async function approvePending(db: Kysely<ControlDb>, ref: { server: string; tool: string }, read: string, by: string): Promise<McpToolPin | undefined> {
  const r = await sql<PinRow>`
    UPDATE mcp_tool_pins SET definition = pending_definition, digest = pending_digest, approved_at = now(), approved_by = ${by},
      pending_definition = NULL, pending_digest = NULL, pending_since = NULL, five_fields_until = NULL
    WHERE server = ${ref.server} AND tool = ${ref.tool} AND pending_digest IS NOT NULL AND starts_with(pending_digest, ${read})
    RETURNING *`.execute(db);
  return r.rows[0] && toPin(r.rows[0]);
}

/** Pins a tool's pending definition (an operator read it and approves it): a changed tool's calls resume, a new tool is listed and called, on every replica. */
export function approveMcpTool(ctx: ControlContext) {
  return async (req: McpToolRef): Promise<McpToolPin> => {
    // The definition the operator read, when named: not another that replaced it since.
    const read = req.digest.toLowerCase();
    if (read !== "" && !/^[0-9a-f]{12,64}$/.test(read)) throw new GatewayError("invalid_request", "digest: the pending definition's digest, 12 to 64 hex characters (gatewayctl mcp pins shows it)");
    const pin = await approvePending(ctx.db, req, read, "operator");
    if (!pin) {
      const what = read ? `no definition of digest ${read}… of '${req.tool}'` : `no definition of '${req.tool}'`;
      throw new GatewayError("not_found", `${what} on MCP server '${req.server}' is waiting for approval (gatewayctl mcp pins ${req.server} ${req.tool})`);
    }
    await bumpCatalog(ctx);
    return pin;
  };
}
