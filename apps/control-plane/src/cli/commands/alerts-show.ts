import { command, UsageError } from "../command.js";
import { settingsLine } from "../alert-text.js";

export const alertsShow = command({
  words: ["alerts", "show"],
  help: [{ synopsis: "alerts show ORG", summary: ["thresholds and webhook (never the secret)"] }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 1) throw new UsageError("alerts show takes exactly one ORG");
    const s = await clients().admin.GetAlertSettings({ org: args[0]! });
    return out.print({ ...s }, settingsLine(s));
  },
});
