import { command } from "../command.js";

export const orgList = command({
  words: ["org", "list"],
  help: [{ synopsis: "org list" }],
  flags: {},
  async run(_args, { clients, out }) {
    const { orgs } = await clients().admin.ListOrgs({});
    return out.print({ orgs }, orgs.map((o) => `${o.id}\t${o.name}\t${o.in_trial ? "trial" : "active"}\t${o.enabled_models.join(",")}`).join("\n") || "(no organizations)");
  },
});
