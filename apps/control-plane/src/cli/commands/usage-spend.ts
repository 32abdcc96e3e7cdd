import { need, timeWindow } from "../args.js";
import { existingOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";

export const usageSpend = command({
  words: ["usage", "spend"],
  help: [
    {
      synopsis: "usage spend --org ORG --from T --to T [--by hour|day] [--group model|key]",
      summary: ["the organization's requests, tokens and cost per UTC hour or day", "(default day), per model or key, from the ledger's rollups"],
    },
  ],
  flags: { org: { type: "string" }, from: { type: "string" }, to: { type: "string" }, by: { type: "string" }, group: { type: "string" } },
  async run(args, { clients, out, flags }) {
    if (args.length > 0) throw new UsageError("usage spend takes --org, --from and --to, no positional arguments");
    const { fromMs, toMs } = timeWindow(flags.from, flags.to);
    const bucket = flags.by ?? "day";
    if (bucket !== "hour" && bucket !== "day") throw new UsageError(`--by must be hour or day, got '${bucket}'`);
    const group = flags.group ?? "";
    if (group !== "" && group !== "model" && group !== "key") throw new UsageError(`--group must be model or key, got '${group}'`);
    const c = clients();
    const orgId = await existingOrgId(c, need(flags.org, "--org"));
    const { points } = await c.ledger.SpendSeries({ org_id: orgId, from_ms: fromMs, to_ms: toMs, bucket, group_by: group });
    const lines = points.map(
      (p) =>
        `${new Date(p.bucket_start_ms).toISOString().slice(0, bucket === "day" ? 10 : 13)}${group ? `\t${p.group}` : ""}\trequests ${p.requests}\tinput ${p.input_tokens}\toutput ${p.output_tokens}\tcost ${p.cost_minor}`,
    );
    return out.print({ points }, lines.join("\n") || "(no usage)");
  },
});
