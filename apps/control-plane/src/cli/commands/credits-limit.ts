import { intFlag, need } from "../args.js";
import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";
import { actor, adjustmentOutput } from "../adjustments.js";

export const creditsLimit = command({
  words: ["credits", "limit"],
  help: [
    {
      synopsis: "credits limit ORG --limit-minor N [--reason TEXT] [--idempotency-key K] [--actor WHO]",
      summary: ["postpaid: the balance may go to −N (0: prepaid); leases hold against it"],
    },
  ],
  flags: { "limit-minor": { type: "string" }, reason: { type: "string" }, "idempotency-key": { type: "string" }, actor: { type: "string" } },
  async run(args, { clients, out, flags, env }) {
    if (args.length !== 1) throw new UsageError("credits limit takes exactly one ORG");
    const limit = intFlag(need(flags["limit-minor"], "--limit-minor"), "--limit-minor", 0);
    const who = actor(flags.actor, env);
    const c = clients();
    const orgId = await resolveOrgId(c, args[0]!);
    const r = await c.ledger.SetCreditLimit({ org_id: orgId, credit_limit_minor: limit, reason: flags.reason ?? "", operator: who, idempotency_key: flags["idempotency-key"] ?? "" });
    return adjustmentOutput(out, r, flags["idempotency-key"] ?? "");
  },
});
