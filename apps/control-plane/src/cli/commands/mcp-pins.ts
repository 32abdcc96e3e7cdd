import { command } from "../command.js";

export const mcpPins = command({
  words: ["mcp", "pins"],
  help: [{ synopsis: "mcp pins [SERVER]", summary: ["the pinned tool definitions, and changed ones waiting for approval"] }],
  flags: {},
  async run(args, { clients, out }) {
    const { pins } = await clients().admin.ListMcpToolPins({ server: args[0] ?? "" });
    return out.print(
      { pins },
      pins
        .map(
          (p) =>
            `${p.server}\t${p.tool}\t${p.digest.slice(0, 12)}\t${p.approved_by} ${new Date(p.approved_at_ms).toISOString()}${p.pending_digest ? `\tCHANGED: ${p.pending_digest.slice(0, 12)} pending since ${new Date(p.pending_since_ms).toISOString()} (gatewayctl mcp approve ${p.server} ${p.tool})` : ""}`,
        )
        .join("\n") || "(no pinned tools)",
    );
  },
});
