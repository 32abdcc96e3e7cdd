import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";

export const creditsShow = command({
  words: ["credits", "show"],
  help: [{ synopsis: "credits show ORG" }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 1) throw new UsageError("credits show takes exactly one ORG");
    const c = clients();
    const cr = await c.ledger.GetCredits({ org_id: await resolveOrgId(c, args[0]!) });
    return out.print({ ...cr }, `balance ${cr.balance_minor}  held ${cr.held_minor}  spent ${cr.spent_minor}  topped up ${cr.topped_up_minor} (minor units)`);
  },
});
