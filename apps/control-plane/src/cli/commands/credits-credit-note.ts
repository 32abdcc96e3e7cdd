import { need } from "../args.js";
import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";
import { actor, adjustmentOutput, positiveFlag } from "../adjustments.js";

export const creditsCreditNote = command({
  words: ["credits", "credit-note"],
  help: [
    {
      synopsis: "credits credit-note ORG --amount-minor N --reason TEXT --idempotency-key K [--month YYYY-MM] [--reference R] [--actor WHO]",
      summary: ["credits an amount not tied to one request (a service credit)"],
    },
  ],
  flags: { "amount-minor": { type: "string" }, reason: { type: "string" }, "idempotency-key": { type: "string" }, month: { type: "string" }, reference: { type: "string" }, actor: { type: "string" } },
  async run(args, { clients, out, flags, env }) {
    if (args.length !== 1) throw new UsageError("credits credit-note takes exactly one ORG");
    const amount = positiveFlag(flags["amount-minor"], "--amount-minor");
    const reason = need(flags.reason, "--reason");
    const key = need(flags["idempotency-key"], "--idempotency-key");
    if (flags.month !== undefined && !/^\d{4}-(0[1-9]|1[0-2])$/.test(flags.month)) throw new UsageError(`--month must be YYYY-MM, got '${flags.month}'`);
    const who = actor(flags.actor, env);
    const c = clients();
    const orgId = await resolveOrgId(c, args[0]!);
    const r = await c.ledger.IssueCreditNote({ org_id: orgId, amount_minor: amount, reason, operator: who, idempotency_key: key, period: flags.month ?? "", reference: flags.reference ?? "" });
    return adjustmentOutput(out, r, key);
  },
});
