import { list, optionalInt, positionalOrFlag, windowFlag } from "../args.js";
import { budgetText } from "../budget-text.js";
import { command, UsageError } from "../command.js";

export const keySetBudget = command({
  words: ["key", "set-budget"],
  help: [
    {
      synopsis: "key set-budget KEY_ID [--limit-minor N] [--window W] [--project ID|NAME] [--tags a,b]",
      summary: ["the key's own cap (0: none) and window, its project (--project ''", "takes it out) and its tags (replaced; --tags '' removes them)"],
    },
  ],
  flags: { key: { type: "string" }, "limit-minor": { type: "string" }, window: { type: "string" }, project: { type: "string" }, tags: { type: "string" } },
  async run(args, { clients, out, flags }) {
    const keyId = positionalOrFlag(args, flags.key, "key set-budget", "KEY_ID", "--key");
    const change = {
      key_id: keyId,
      limit_minor: optionalInt(flags["limit-minor"], "--limit-minor"),
      window: windowFlag(flags.window),
      project: flags.project,
      tags: flags.tags === undefined ? undefined : { tags: list(flags.tags) },
    };
    if (change.limit_minor === undefined && change.window === undefined && change.project === undefined && change.tags === undefined) {
      throw new UsageError("key set-budget needs at least one of --limit-minor, --window, --project and --tags");
    }
    const k = await clients().admin.SetKeyBudget(change);
    return out.print({ ...k }, `${k.id}: ${budgetText(k.budget)}; project ${k.project_id || "none"}; tags ${k.tags.join(",") || "none"}`);
  },
});
