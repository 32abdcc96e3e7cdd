import { intFlag, list, need } from "../args.js";
import { command } from "../command.js";

export const keyCreate = command({
  words: ["key", "create"],
  help: [{ synopsis: "key create --org ORG [--routes chat,messages,…] [--models ID,…] [--name LABEL] [--rpm N] [--tpm N]" }],
  flags: {
    org: { type: "string" },
    routes: { type: "string" },
    models: { type: "string" },
    name: { type: "string" },
    rpm: { type: "string" },
    tpm: { type: "string" },
    "mcp-tools": { type: "string" },
  },
  async run(_args, { clients, out, flags }) {
    const r = await clients().admin.CreateKey({
      org: need(flags.org, "--org"),
      routes: list(flags.routes),
      models: list(flags.models),
      name: flags.name ?? "",
      rpm_limit: intFlag(flags.rpm, "--rpm", 0),
      tpm_limit: intFlag(flags.tpm, "--tpm", 0),
      mcp_tools: list(flags["mcp-tools"]),
    });
    const k = r.key!;
    return out.print(
      { id: k.id, org_id: k.org_id, name: k.name, prefix: k.prefix, routes: k.routes, models: k.models, rpm_limit: k.rpm_limit, tpm_limit: k.tpm_limit, secret: r.secret },
      `created key ${k.id} for ${k.org_id}\nsecret (shown once, store it now): ${r.secret}`,
    );
  },
});
