import { optionalInt, positionalOrFlag, windowFlag } from "../args.js";
import { budgetText } from "../budget-text.js";
import { command, UsageError } from "../command.js";

const SOURCES: Record<string, string> = { body: "body", header: "header", off: "" };

export const orgSetEndUserBudgets = command({
  words: ["org", "set-end-user-budgets"],
  help: [
    {
      synopsis: "org set-end-user-budgets ORG [--source body|header|off] [--limit-minor N] [--window W]",
      summary: [
        "where end users are read (body: OpenAI user, Anthropic",
        "metadata.user_id; header: x-gateway-end-user; off: no end-user",
        "budgets), every end user's default cap (0: none) and window;",
        "what is left out keeps its value",
      ],
    },
  ],
  flags: { org: { type: "string" }, source: { type: "string" }, "limit-minor": { type: "string" }, window: { type: "string" } },
  async run(args, { clients, out, flags }) {
    const ref = positionalOrFlag(args, flags.org, "org set-end-user-budgets", "ORG", "--org");
    if (flags.source !== undefined && !(flags.source in SOURCES)) throw new UsageError(`--source must be body, header or off, got '${flags.source}'`);
    const change = {
      org: ref,
      end_user_source: flags.source === undefined ? undefined : SOURCES[flags.source],
      end_user_limit_minor: optionalInt(flags["limit-minor"], "--limit-minor"),
      end_user_window: windowFlag(flags.window),
    };
    if (change.end_user_source === undefined && change.end_user_limit_minor === undefined && change.end_user_window === undefined) {
      throw new UsageError("org set-end-user-budgets needs at least one of --source, --limit-minor and --window");
    }
    const org = await clients().admin.SetOrgBudgets(change);
    const source = org.end_user_source === "" ? "off (no end-user budgets)" : `read from the ${org.end_user_source}`;
    return out.print({ ...org }, `${org.id}: end users ${source}; default ${budgetText(org.end_user_budget)}; ${org.end_user_overrides} with their own limit`);
  },
});
