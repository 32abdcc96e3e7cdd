import { GatewayError } from "@gateway/errors";
import type { EnableMcpServersRequest, EnableMcpServersResponse } from "@gateway/proto";
import type { ControlContext } from "../context.js";
import { findOrg } from "../orgs.js";

/** Lets an organization use MCP servers of the catalog (added to its set); its keys' cached contexts are dropped. */
export function enableMcpServers(ctx: ControlContext) {
  return async (req: EnableMcpServersRequest): Promise<EnableMcpServersResponse> => {
    const org = await findOrg(ctx.db, req.org);
    const servers = [...new Set(req.servers.map((s) => s.trim()).filter(Boolean))];
    if (servers.length === 0) throw new GatewayError("invalid_request", "at least one MCP server name is required");
    const known = await ctx.db.selectFrom("mcp_servers").select("name").where("name", "in", servers).execute();
    const missing = servers.find((s) => !known.some((k) => k.name === s));
    if (missing) throw new GatewayError("not_found", `MCP server '${missing}' is not in the catalog`);
    await ctx.db
      .insertInto("org_mcp_servers")
      .values(servers.map((server) => ({ org_id: org.id, server })))
      .onConflict((oc) => oc.columns(["org_id", "server"]).doNothing())
      .execute();
    ctx.publishChange({ kind: "org", id: org.id });
    const all = await ctx.db.selectFrom("org_mcp_servers").select("server").where("org_id", "=", org.id).orderBy("server").execute();
    return { org_id: org.id, servers: all.map((s) => s.server) };
  };
}
