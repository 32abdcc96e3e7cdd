import { command, UsageError } from "../command.js";

export const orgTrial = command({
  words: ["org", "trial"],
  help: [{ synopsis: "org trial ORG on|off" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 2 || (args[1] !== "on" && args[1] !== "off")) throw new UsageError("org trial takes ORG and on|off");
    const org = await clients().admin.SetOrgTrial({ org: args[0]!, in_trial: args[1] === "on" });
    return out.print({ ...org }, `${org.id}: ${org.in_trial ? "in trial" : "out of trial"}`);
  },
});
