import { intFlag, need, windowFlag } from "../args.js";
import { budgetText } from "../budget-text.js";
import { command, UsageError } from "../command.js";

export const projectCreate = command({
  words: ["project", "create"],
  help: [{ synopsis: "project create --org ORG --name NAME [--limit-minor N] [--window W]", summary: ["a project: keys grouped under a cap of their own"] }],
  flags: { org: { type: "string" }, name: { type: "string" }, "limit-minor": { type: "string" }, window: { type: "string" } },
  async run(args, { clients, out, flags }) {
    if (args.length > 0) throw new UsageError("project create takes --org and --name, no positional arguments");
    const p = await clients().admin.CreateProject({
      org: need(flags.org, "--org"),
      name: need(flags.name, "--name"),
      limit_minor: intFlag(flags["limit-minor"], "--limit-minor", 0),
      window: windowFlag(flags.window) ?? "",
    });
    return out.print({ ...p }, `created project ${p.id} (${p.name}) for ${p.org_id}: ${budgetText(p.budget)}`);
  },
});
