import { intFlag, need } from "../args.js";
import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";

export const creditsTopUp = command({
  words: ["credits", "top-up"],
  help: [
    {
      synopsis: "credits top-up ORG --amount-minor N --idempotency-key K [--paid-minor N --currency CODE] [--payment-ref R] [--invoice-ref R]",
      summary: ["with what the customer paid (the currency's minor units) and its references"],
    },
  ],
  flags: {
    "amount-minor": { type: "string" },
    "idempotency-key": { type: "string" },
    "paid-minor": { type: "string" },
    currency: { type: "string" },
    "payment-ref": { type: "string" },
    "invoice-ref": { type: "string" },
  },
  async run(args, { clients, out, flags }) {
    if (args.length !== 1) throw new UsageError("credits top-up takes exactly one ORG");
    const raw = need(flags["amount-minor"], "--amount-minor");
    if (!/^[1-9][0-9]*$/.test(raw) || !Number.isSafeInteger(Number(raw))) throw new UsageError(`--amount-minor must be a positive integer, got '${raw}'`);
    const key = need(flags["idempotency-key"], "--idempotency-key");
    const c = clients();
    const orgId = await resolveOrgId(c, args[0]!);
    const paid = intFlag(flags["paid-minor"], "--paid-minor", 0);
    if (paid > 0 && !flags.currency) throw new UsageError("--paid-minor needs --currency (an ISO 4217 code)");
    const r = await c.ledger.TopUp({
      org_id: orgId,
      amount_minor: Number(raw),
      idempotency_key: key,
      paid_amount_minor: paid,
      paid_currency: flags.currency ?? "",
      payment_reference: flags["payment-ref"] ?? "",
      invoice_reference: flags["invoice-ref"] ?? "",
    });
    return out.print(
      {
        id: r.top_up_id,
        org_id: orgId,
        duplicate: r.duplicate,
        added_minor: r.duplicate ? 0 : Number(raw),
        balance_minor: r.credits?.balance_minor ?? 0,
        topped_up_minor: r.credits?.topped_up_minor ?? 0,
      },
      r.duplicate
        ? // The ledger answers a reused idempotency key with the first top-up's result: say plainly that this call added nothing.
          `already applied; nothing added: --idempotency-key ${key} is top-up ${r.top_up_id}; balance ${r.credits?.balance_minor ?? 0} minor units (use a new key to add credit)`
        : `topped up ${r.top_up_id}: balance ${r.credits?.balance_minor ?? 0} minor units`,
    );
  },
});
