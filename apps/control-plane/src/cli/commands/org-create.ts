import { need } from "../args.js";
import { command } from "../command.js";

export const orgCreate = command({
  words: ["org", "create"],
  help: [{ synopsis: "org create --name NAME" }],
  flags: { name: { type: "string" } },
  async run(_args, { clients, out, flags }) {
    const org = await clients().admin.CreateOrg({ name: need(flags.name, "--name") });
    return out.print({ ...org }, `created organization ${org.id} (${org.name})`);
  },
});
