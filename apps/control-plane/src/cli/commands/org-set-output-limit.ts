import { command, UsageError } from "../command.js";

export const orgSetOutputLimit = command({
  words: ["org", "set-output-limit"],
  help: [{ synopsis: "org set-output-limit ORG clamp|strict" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 2 || (args[1] !== "clamp" && args[1] !== "strict")) throw new UsageError("org set-output-limit takes an ORG and clamp or strict");
    const org = await clients().admin.SetOrgOutputLimit({ org: args[0]!, output_limit: args[1] });
    return out.print({ ...org }, `${org.id}: output limits above a model's are ${org.output_limit === "strict" ? "refused (400)" : "clamped to the model's"}`);
  },
});
