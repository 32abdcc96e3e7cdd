import { command, UsageError } from "../command.js";

export const mcpApprove = command({
  words: ["mcp", "approve"],
  help: [{ synopsis: "mcp approve SERVER TOOL", summary: ["approves a tool's changed definition (its calls resume)"] }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 2) throw new UsageError("mcp approve takes SERVER and TOOL");
    const pin = await clients().admin.ApproveMcpTool({ server: args[0]!, tool: args[1]! });
    return out.print({ ...pin }, `${pin.server} ${pin.tool}: definition ${pin.digest.slice(0, 12)} approved`);
  },
});
