import { need, optionalInt, windowFlag } from "../args.js";
import { budgetText } from "../budget-text.js";
import { command, UsageError } from "../command.js";

export const projectSetBudget = command({
  words: ["project", "set-budget"],
  help: [{ synopsis: "project set-budget --org ORG --project ID|NAME [--limit-minor N] [--window W]" }],
  flags: { org: { type: "string" }, project: { type: "string" }, "limit-minor": { type: "string" }, window: { type: "string" } },
  async run(args, { clients, out, flags }) {
    if (args.length > 0) throw new UsageError("project set-budget takes --org and --project, no positional arguments");
    const change = { org: need(flags.org, "--org"), project: need(flags.project, "--project"), limit_minor: optionalInt(flags["limit-minor"], "--limit-minor"), window: windowFlag(flags.window) };
    if (change.limit_minor === undefined && change.window === undefined) throw new UsageError("project set-budget needs --limit-minor, --window or both");
    const p = await clients().admin.SetProjectBudget(change);
    return out.print({ ...p }, `${p.id} (${p.name}): ${budgetText(p.budget)}`);
  },
});
