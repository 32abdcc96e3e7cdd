import type { McpToolPin } from "@gateway/proto";
import { command, UsageError } from "../command.js";

const at = (ms: number) => new Date(ms).toISOString();

/** One line per tool: what is approved (or NEW: nothing yet), and what waits for approval. */
function line(p: McpToolPin): string {
  const approved = p.digest ? `${p.digest.slice(0, 12)}\t${p.approved_by} ${at(p.approved_at_ms)}` : "(none approved)";
  const waiting = !p.pending_digest
    ? ""
    : `\t${p.digest ? "CHANGED" : "NEW"}: ${p.pending_digest.slice(0, 12)} pending since ${at(p.pending_since_ms)} (gatewayctl mcp approve ${p.server} ${p.tool} ${p.pending_digest.slice(0, 12)})`;
  return `${p.server}\t${p.tool}\t${approved}${waiting}`;
}

/** One tool in full: the approved definition and the pending one, to read before approving. */
function detail(p: McpToolPin): string {
  const json = (s: string) => (s ? JSON.stringify(JSON.parse(s), null, 2) : "(none)");
  return [
    line(p),
    `approved${p.digest ? ` ${p.digest}` : ""}:`,
    json(p.definition_json),
    ...(p.pending_digest ? [`pending ${p.pending_digest} (${p.digest ? "a changed definition" : "a tool new at a server whose tools were pinned"}):`, json(p.pending_definition_json)] : []),
  ].join("\n");
}

export const mcpPins = command({
  words: ["mcp", "pins"],
  help: [
    {
      synopsis: "mcp pins [SERVER [TOOL]]",
      summary: ["pinned tool definitions, and changed or new ones waiting for", "approval; with TOOL, both definitions in full"],
    },
  ],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length > 2) throw new UsageError("mcp pins takes at most SERVER and TOOL");
    const { pins } = await clients().admin.ListMcpToolPins({ server: args[0] ?? "" });
    const tool = args[1];
    if (tool !== undefined) {
      const pin = pins.find((p) => p.tool === tool);
      if (!pin) throw new UsageError(`no tool '${tool}' of MCP server '${args[0]}' has been seen`);
      return out.print({ ...pin }, detail(pin));
    }
    return out.print({ pins }, pins.map(line).join("\n") || "(no pinned tools)");
  },
});
