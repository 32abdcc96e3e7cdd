import { intFlag, need } from "../args.js";
import { command, UsageError } from "../command.js";

export const orgSetBudget = command({
  words: ["org", "set-budget"],
  // The note is part of the synopsis: the help has it on the same line, past the summaries' column.
  help: [{ synopsis: "org set-budget ORG --monthly-minor N      (0 removes the cap)" }],
  flags: { "monthly-minor": { type: "string" } },
  async run(args, { clients, out, flags }) {
    if (args.length !== 1) throw new UsageError("org set-budget takes exactly one ORG");
    const budget = intFlag(need(flags["monthly-minor"], "--monthly-minor"), "--monthly-minor", 0);
    const org = await clients().admin.SetOrgBudget({ org: args[0]!, monthly_budget_minor: budget });
    return out.print({ ...org }, `${org.id}: monthly budget ${org.monthly_budget_minor || "none"}`);
  },
});
