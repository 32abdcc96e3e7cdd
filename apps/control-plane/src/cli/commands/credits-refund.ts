import { intFlag, need } from "../args.js";
import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";
import { actor, adjustmentOutput } from "../adjustments.js";

export const creditsRefund = command({
  words: ["credits", "refund"],
  help: [
    {
      synopsis: "credits refund ORG --request REQ [--amount-minor N] --reason TEXT --idempotency-key K [--actor WHO]",
      summary: ["gives back all (no --amount-minor) or part of what a request cost;", 'never more than it cost; docs/billing.md, "Adjustments"'],
    },
  ],
  flags: { request: { type: "string" }, "amount-minor": { type: "string" }, reason: { type: "string" }, "idempotency-key": { type: "string" }, actor: { type: "string" } },
  async run(args, { clients, out, flags, env }) {
    if (args.length !== 1) throw new UsageError("credits refund takes exactly one ORG");
    const request = need(flags.request, "--request");
    const amount = intFlag(flags["amount-minor"], "--amount-minor", 0);
    const reason = need(flags.reason, "--reason");
    const key = need(flags["idempotency-key"], "--idempotency-key");
    const who = actor(flags.actor, env);
    const c = clients();
    const orgId = await resolveOrgId(c, args[0]!);
    const r = await c.ledger.RefundUsage({ org_id: orgId, request_id: request, amount_minor: amount, reason, operator: who, idempotency_key: key });
    return adjustmentOutput(out, r, key);
  },
});
