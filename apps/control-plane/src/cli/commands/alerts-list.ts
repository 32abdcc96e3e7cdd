import { intFlag, need } from "../args.js";
import { command } from "../command.js";
import { alertLine } from "../alert-text.js";

export const alertsList = command({
  words: ["alerts", "list"],
  help: [{ synopsis: "alerts list --org ORG [--limit N]", summary: ["newest first: time, id, kind, scope, threshold, delivery,", "attempts, last error"] }],
  flags: { org: { type: "string" }, limit: { type: "string" } },
  async run(_args, { clients, out, flags }) {
    const { alerts, next_cursor } = await clients().admin.ListAlerts({ org: need(flags.org, "--org"), cursor: "", limit: intFlag(flags.limit, "--limit", 50) });
    return out.print({ alerts, next_cursor }, alerts.map(alertLine).join("\n") || "(no alerts)");
  },
});
