import { list, need } from "../args.js";
import { command, UsageError } from "../command.js";
import { settingsLine } from "../alert-text.js";

/** `50,80,100` → numbers; '' → [] (removes them); a word that is not a whole number is a usage error. */
function numbers(v: string, flag: string): number[] {
  return list(v).map((x) => {
    if (!/^[0-9]+$/.test(x) || !Number.isSafeInteger(Number(x))) throw new UsageError(`${flag} takes whole numbers separated by commas, got '${x}'`);
    return Number(x);
  });
}

export const alertsSet = command({
  words: ["alerts", "set"],
  help: [
    {
      synopsis: "alerts set ORG [--budget-pct 50,80,100] [--balance-minor N,…] [--webhook URL] [--rotate-secret] [--drop-previous]",
      summary: ["thresholds and webhook (docs/billing.md, \"Alerts\"); '' removes one; a new", "signing secret is printed once, the old one signs beside it for 24 h", "unless --drop-previous"],
    },
  ],
  flags: { "budget-pct": { type: "string" }, "balance-minor": { type: "string" }, webhook: { type: "string" }, "rotate-secret": { type: "boolean" }, "drop-previous": { type: "boolean" } },
  async run(args, { clients, out, flags }) {
    if (args.length !== 1) throw new UsageError("alerts set takes exactly one ORG");
    const pct = flags["budget-pct"];
    const balance = flags["balance-minor"];
    if (pct === undefined && balance === undefined && flags.webhook === undefined && !flags["rotate-secret"] && !flags["drop-previous"]) {
      throw new UsageError("alerts set: give --budget-pct, --balance-minor, --webhook, --rotate-secret or --drop-previous");
    }
    const s = await clients().admin.SetAlertSettings({
      org: need(args[0], "ORG"),
      budget_pcts: pct === undefined ? null : { values: numbers(pct, "--budget-pct") },
      balance_minor: balance === undefined ? null : { values: numbers(balance, "--balance-minor") },
      ...(flags.webhook === undefined ? {} : { webhook_url: flags.webhook }),
      rotate_secret: flags["rotate-secret"] ?? false,
      drop_previous_secret: flags["drop-previous"] ?? false,
    });
    const secret = s.webhook_secret ? `\nsigning secret (shown once: give it to the receiver): ${s.webhook_secret}` : "";
    return out.print({ ...s }, settingsLine(s) + secret);
  },
});
