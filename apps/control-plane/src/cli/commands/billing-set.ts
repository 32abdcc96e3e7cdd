import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";
import { parseMicros } from "../money.js";

const show = (b: { org_id: string; external_customer_id: string; currency: string; price_per_credit_micros: number; time_zone: string }) =>
  `${b.org_id || "(defaults)"}\texternal id ${b.external_customer_id || "-"}\tcurrency ${b.currency || "-"}\tprice per credit ${b.price_per_credit_micros ? (b.price_per_credit_micros / 1_000_000).toFixed(6).replace(/\.?0+$/, "") : "-"}\ttime zone ${b.time_zone}`;

export const billingSet = command({
  words: ["billing", "set"],
  help: [
    {
      synopsis: "billing set ORG|--defaults [--external-id ID] [--currency CODE] [--price-per-credit DEC] [--time-zone TZ]",
      summary: [
        "commercial metadata kept by the ledger for statements and the feed: the",
        "billing system's customer id, the currency and price of one credit (display",
        "only), the statements' time zone; '-' clears a value (docs/billing.md)",
      ],
    },
  ],
  flags: { defaults: { type: "boolean" }, "external-id": { type: "string" }, currency: { type: "string" }, "price-per-credit": { type: "string" }, "time-zone": { type: "string" } },
  async run(args, { clients, out, flags }) {
    if (flags.defaults ? args.length !== 0 : args.length !== 1) throw new UsageError("billing set takes exactly one ORG, or --defaults");
    const price = flags["price-per-credit"];
    const c = clients();
    const orgId = flags.defaults ? "" : await resolveOrgId(c, args[0]!);
    const r = await c.ledger.SetOrgBilling({
      org_id: orgId,
      external_customer_id: flags["external-id"] ?? "",
      currency: flags.currency ?? "",
      price_per_credit_micros: price === undefined ? 0 : price === "-" ? -1 : parseMicros(price, "--price-per-credit"),
      time_zone: flags["time-zone"] ?? "",
      operator: "",
    });
    return out.print({ ...r }, show(r));
  },
});

export const billingShow = command({
  words: ["billing", "show"],
  help: [{ synopsis: "billing show ORG|--defaults", summary: ["the commercial metadata in force (the organization's, else the defaults)"] }],
  flags: { defaults: { type: "boolean" } },
  async run(args, { clients, out, flags }) {
    if (flags.defaults ? args.length !== 0 : args.length !== 1) throw new UsageError("billing show takes exactly one ORG, or --defaults");
    const c = clients();
    const r = await c.ledger.GetOrgBilling({ org_id: flags.defaults ? "" : await resolveOrgId(c, args[0]!) });
    return out.print({ ...r }, show(r));
  },
});
