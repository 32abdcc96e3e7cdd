import { need } from "../args.js";
import { budgetText } from "../budget-text.js";
import { command } from "../command.js";

export const projectList = command({
  words: ["project", "list"],
  help: [{ synopsis: "project list --org ORG" }],
  flags: { org: { type: "string" } },
  async run(_args, { clients, out, flags }) {
    const { projects } = await clients().admin.ListProjects({ org: need(flags.org, "--org") });
    return out.print({ projects }, projects.map((p) => `${p.id}\t${p.name}\t${budgetText(p.budget)}\t${p.keys} key(s)`).join("\n") || "(no projects)");
  },
});
