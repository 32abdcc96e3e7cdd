import { intFlag, optionalInt, positionalOrFlag, windowFlag } from "../args.js";
import { budgetText } from "../budget-text.js";
import { command, UsageError } from "../command.js";

export const orgSetBudget = command({
  words: ["org", "set-budget"],
  // The note is part of the synopsis: the help has it on the same line, past the summaries' column.
  help: [
    { synopsis: "org set-budget ORG --monthly-minor N      (0 removes the cap)" },
    {
      synopsis: "org set-budget ORG [--limit-minor N] [--window day|week|month|none] [--time-zone TZ]",
      summary: ["the organization's cap (0: none) and its window, which starts", "at midnight in its IANA time zone (UTC unless set); what is", "left out keeps its value"],
    },
  ],
  flags: { org: { type: "string" }, "monthly-minor": { type: "string" }, "limit-minor": { type: "string" }, window: { type: "string" }, "time-zone": { type: "string" } },
  async run(args, { clients, out, flags }) {
    const ref = positionalOrFlag(args, flags.org, "org set-budget", "ORG", "--org");
    const monthly = flags["monthly-minor"];
    if (monthly !== undefined && (flags["limit-minor"] !== undefined || flags.window !== undefined)) {
      throw new UsageError("--monthly-minor N is --limit-minor N --window month: give one or the other");
    }
    const change = {
      org: ref,
      time_zone: flags["time-zone"],
      limit_minor: monthly !== undefined ? intFlag(monthly, "--monthly-minor", 0) : optionalInt(flags["limit-minor"], "--limit-minor"),
      window: monthly !== undefined ? "month" : windowFlag(flags.window),
    };
    if (change.time_zone === undefined && change.limit_minor === undefined && change.window === undefined) {
      throw new UsageError("org set-budget needs --monthly-minor N, or at least one of --limit-minor, --window and --time-zone");
    }
    if (monthly !== undefined && change.time_zone === undefined) {
      // The form of the release before windows, through its RPC (a control-plane of that release answers it too).
      const org = await clients().admin.SetOrgBudget({ org: ref, monthly_budget_minor: change.limit_minor });
      return out.print({ ...org }, `${org.id}: monthly budget ${org.monthly_budget_minor || "none"}`);
    }
    const org = await clients().admin.SetOrgBudgets(change);
    return out.print({ ...org }, `${org.id}: budget ${budgetText(org.budget)}, time zone ${org.time_zone}`);
  },
});
