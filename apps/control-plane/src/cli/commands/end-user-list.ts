import { need } from "../args.js";
import { command } from "../command.js";

export const endUserList = command({
  words: ["end-user", "list"],
  help: [{ synopsis: "end-user list --org ORG", summary: ["end users with a limit of their own"] }],
  flags: { org: { type: "string" } },
  async run(_args, { clients, out, flags }) {
    const { end_users } = await clients().admin.ListEndUserBudgets({ org: need(flags.org, "--org") });
    return out.print({ end_users }, end_users.map((e) => `${e.end_user}\t${e.limit_minor || "no cap"}`).join("\n") || "(no end user has a limit of its own)");
  },
});
