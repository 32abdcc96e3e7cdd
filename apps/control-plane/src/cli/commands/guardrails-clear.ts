import { command, UsageError } from "../command.js";

export const guardrailsClear = command({
  words: ["guardrails", "clear"],
  help: [{ synopsis: "guardrails clear ORG" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 1) throw new UsageError("guardrails clear takes exactly one ORG");
    const g = await clients().admin.SetGuardrails({ org: args[0]!, document: "" });
    return out.print({ org_id: g.org_id, version: g.version, rules: [] }, `${g.org_id}: guardrail rules removed`);
  },
});
