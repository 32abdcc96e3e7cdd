import { command, UsageError } from "../command.js";

export const guardrailsShow = command({
  words: ["guardrails", "show"],
  help: [{ synopsis: "guardrails show ORG" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 1) throw new UsageError("guardrails show takes exactly one ORG");
    const g = await clients().admin.GetGuardrails({ org: args[0]! });
    return out.print({ org_id: g.org_id, version: g.version, rules: JSON.parse(g.rules_json) as unknown, document: g.document }, g.document || `${g.org_id}: no guardrail rules`);
  },
});
