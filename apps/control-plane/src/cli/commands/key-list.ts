import { need } from "../args.js";
import { command } from "../command.js";

export const keyList = command({
  words: ["key", "list"],
  help: [{ synopsis: "key list --org ORG" }],
  flags: { org: { type: "string" } },
  async run(_args, { clients, out, flags }) {
    const { keys } = await clients().admin.ListKeys({ org: need(flags.org, "--org") });
    return out.print(
      { keys },
      keys.map((k) => `${k.id}\t${k.prefix}…\t${k.revoked ? "revoked" : "active"}\t${k.routes.join(",") || "all routes"}\t${k.models.join(",") || "all models"}\t${k.name}`).join("\n") || "(no keys)",
    );
  },
});
