import { intFlag } from "../args.js";
import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";

export const creditsAdjustments = command({
  words: ["credits", "adjustments"],
  help: [{ synopsis: "credits adjustments ORG [--count N]", summary: ["the organization's refunds, credit notes, promotional credit and", "credit limits, newest first (default 100)"] }],
  flags: { count: { type: "string" } },
  async run(args, { clients, out, flags }) {
    if (args.length !== 1) throw new UsageError("credits adjustments takes exactly one ORG");
    const limit = intFlag(flags.count, "--count", 100);
    const c = clients();
    const { adjustments } = await c.ledger.ListAdjustments({ org_id: await resolveOrgId(c, args[0]!), limit });
    return out.print(
      { adjustments },
      adjustments
        .map(
          (a) =>
            `${a.adjustment_id}\t${new Date(a.created_at_ms).toISOString()}\t${a.kind}\t${a.amount_minor}${a.request_id ? `\t${a.request_id}` : ""}\t${a.period}\t${a.made_by}${a.reason ? `\t${a.reason}` : ""}`,
        )
        .join("\n") || "(no adjustments)",
    );
  },
});
