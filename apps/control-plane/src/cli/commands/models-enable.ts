import { command, UsageError } from "../command.js";

export const modelsEnable = command({
  words: ["models", "enable"],
  help: [{ synopsis: "models enable ORG MODEL [MODEL…]" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length < 2) throw new UsageError("models enable takes ORG and at least one MODEL");
    const org = await clients().admin.EnableModels({ org: args[0]!, models: args.slice(1) });
    return out.print({ ...org }, `enabled for ${org.id}: ${org.enabled_models.join(", ")}`);
  },
});
