import { need, readText } from "../args.js";
import { command, UsageError } from "../command.js";

export const guardrailsSet = command({
  words: ["guardrails", "set"],
  help: [{ synopsis: "guardrails set ORG -f FILE", summary: ["(YAML or JSON rules; see docs/guardrails.md)"] }],
  flags: { file: { type: "string", short: "f" } },
  async run(args, { clients, out, flags }) {
    if (args.length !== 1) throw new UsageError("guardrails set takes exactly one ORG and -f FILE");
    const text = readText(need(flags.file, "-f FILE"));
    // The server validates the text as written, so its errors name lines of this file.
    const g = await clients().admin.SetGuardrails({ org: args[0]!, document: text });
    return out.print({ org_id: g.org_id, version: g.version, rules: JSON.parse(g.rules_json) as unknown }, `${g.org_id}: guardrails version ${g.version}, ${g.rules} rule(s)`);
  },
});
