import { instantFlag, need } from "../args.js";
import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";
import { actor, adjustmentOutput, positiveFlag } from "../adjustments.js";

export const creditsPromo = command({
  words: ["credits", "promo"],
  help: [
    {
      synopsis: "credits promo ORG --amount-minor N --reason TEXT --idempotency-key K [--expires T] [--actor WHO]",
      summary: ["promotional credit: drawn before paid credit, not a top-up (no trial", "unlock); what is left at --expires is removed, never what holds cover"],
    },
  ],
  flags: { "amount-minor": { type: "string" }, reason: { type: "string" }, "idempotency-key": { type: "string" }, expires: { type: "string" }, actor: { type: "string" } },
  async run(args, { clients, out, flags, env }) {
    if (args.length !== 1) throw new UsageError("credits promo takes exactly one ORG");
    const amount = positiveFlag(flags["amount-minor"], "--amount-minor");
    const reason = need(flags.reason, "--reason");
    const key = need(flags["idempotency-key"], "--idempotency-key");
    const expires = flags.expires === undefined ? 0 : instantFlag(flags.expires, "--expires");
    const who = actor(flags.actor, env);
    const c = clients();
    const orgId = await resolveOrgId(c, args[0]!);
    const r = await c.ledger.GrantPromoCredit({ org_id: orgId, amount_minor: amount, expires_at_ms: expires, reason, operator: who, idempotency_key: key });
    return adjustmentOutput(out, r, key);
  },
});
