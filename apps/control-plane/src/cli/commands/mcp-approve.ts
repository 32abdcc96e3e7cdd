import { command, UsageError } from "../command.js";

export const mcpApprove = command({
  words: ["mcp", "approve"],
  help: [
    {
      synopsis: "mcp approve SERVER TOOL [DIGEST]",
      summary: ["approves a tool's changed or new definition: served and called", "again; with DIGEST (from mcp pins) only the definition you read"],
    },
  ],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 2 && args.length !== 3) throw new UsageError("mcp approve takes SERVER, TOOL and optionally DIGEST");
    const pin = await clients().admin.ApproveMcpTool({ server: args[0]!, tool: args[1]!, digest: args[2] ?? "" });
    return out.print({ ...pin }, `${pin.server} ${pin.tool}: definition ${pin.digest.slice(0, 12)} approved`);
  },
});
