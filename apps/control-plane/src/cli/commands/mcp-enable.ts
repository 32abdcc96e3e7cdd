import { command, UsageError } from "../command.js";

export const mcpEnable = command({
  words: ["mcp", "enable"],
  help: [{ synopsis: "mcp enable ORG SERVER [SERVER…]", summary: ["lets the organization use MCP servers of the catalog (docs/mcp.md)"] }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length < 2) throw new UsageError("mcp enable takes ORG and at least one SERVER");
    const r = await clients().admin.EnableMcpServers({ org: args[0]!, servers: args.slice(1) });
    return out.print({ ...r }, `MCP servers of ${r.org_id}: ${r.servers.join(", ")}`);
  },
});
