import { timeWindow } from "../args.js";
import { command, UsageError } from "../command.js";

export const usageCosts = command({
  words: ["usage", "costs"],
  help: [
    {
      synopsis: "usage costs --from T --to T [--by-class]",
      summary: [
        "what upstream attempts cost in [from, to): per UTC day and provider",
        "(attempts, unserved, provider cost, absorbed by the operator) and per",
        "organization (billed, provider cost, absorbed, margin); --by-class: per",
        "day, provider, upstream model and token class at its cost price",
      ],
    },
  ],
  flags: { from: { type: "string" }, to: { type: "string" }, "by-class": { type: "boolean" } },
  async run(args, { clients, out, flags }) {
    if (args.length > 0) throw new UsageError("usage costs takes --from and --to, no positional arguments");
    const { fromMs, toMs } = timeWindow(flags.from, flags.to);
    const r = await clients().ledger.CostReport({ from_ms: fromMs, to_ms: toMs, by_token_class: flags["by-class"] === true });
    const providers = r.providers.map((p) => `${p.day}\t${p.provider}\tattempts ${p.attempts}\tunserved ${p.unserved}\tprovider cost ${p.provider_cost_minor}\tabsorbed ${p.absorbed_minor}`);
    const orgs = r.orgs.map((o) => `${o.org_id}\trequests ${o.requests}\tbilled ${o.billed_minor}\tprovider cost ${o.provider_cost_minor}\tabsorbed ${o.absorbed_minor}\tmargin ${o.margin_minor}`);
    const classes = r.classes.map(
      (l) =>
        `${l.day}\t${l.provider}\t${l.upstream_model}\t${l.token_class}${l.service_tier ? `\ttier ${l.service_tier}` : ""}\ttokens ${l.tokens}\tcost price ${l.provider_cost_exact_minor === "" ? "unpriced" : l.unit_price_minor}\tprovider cost ${l.provider_cost_exact_minor || "-"}`,
    );
    return out.print(
      { providers: r.providers, orgs: r.orgs, ...(flags["by-class"] ? { classes: r.classes } : {}) },
      [...(providers.length ? providers : ["(no attempts)"]), "", ...orgs, ...(flags["by-class"] ? ["", ...classes] : [])].join("\n"),
    );
  },
});
