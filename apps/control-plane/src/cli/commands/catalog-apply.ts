import { need, readDocument } from "../args.js";
import { command } from "../command.js";

export const catalogApply = command({
  words: ["catalog", "apply"],
  help: [{ synopsis: "catalog apply -f FILE", summary: ["(YAML or JSON)"] }],
  flags: { file: { type: "string", short: "f" } },
  async run(_args, { clients, out, flags }) {
    const doc = readDocument(need(flags.file, "-f FILE"));
    const r = await clients().admin.ApplyCatalog({ document_json: JSON.stringify(doc) });
    return out.print({ ...r }, `catalog version ${r.version}: ${r.providers} providers, ${r.models} models, ${r.mcp_servers} MCP servers applied`);
  },
});
