import { need, optionalInt } from "../args.js";
import { command, UsageError } from "../command.js";

export const endUserSetBudget = command({
  words: ["end-user", "set-budget"],
  help: [
    {
      synopsis: "end-user set-budget --org ORG --user ID --limit-minor N",
      summary: ["a named end user's own cap (0: none) instead of the default,", "over the end-user window; at most 1,000 per organization"],
    },
    { synopsis: "end-user set-budget --org ORG --user ID --remove", summary: ["back to the organization's default"] },
  ],
  flags: { org: { type: "string" }, user: { type: "string" }, "limit-minor": { type: "string" }, remove: { type: "boolean" } },
  async run(args, { clients, out, flags }) {
    if (args.length > 0) throw new UsageError("end-user set-budget takes --org, --user and --limit-minor (or --remove), no positional arguments");
    const remove = flags.remove === true;
    const limit = optionalInt(flags["limit-minor"], "--limit-minor");
    if (remove === (limit !== undefined)) throw new UsageError("end-user set-budget takes --limit-minor N or --remove (one of them)");
    const e = await clients().admin.SetEndUserBudget({ org: need(flags.org, "--org"), end_user: need(flags.user, "--user"), limit_minor: limit ?? 0, remove });
    return out.print(
      { ...e, removed: remove },
      remove
        ? `${e.org_id}: end user ${e.end_user} has the default limit again`
        : `${e.org_id}: end user ${e.end_user} may spend ${e.limit_minor || "without a cap"}${e.limit_minor ? " minor units per window" : ""}`,
    );
  },
});
