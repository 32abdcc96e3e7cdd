import { resolveOrgId } from "../clients.js";
import { command, UsageError } from "../command.js";

const iso = (ms: number) => (ms ? new Date(ms).toISOString() : "");

export const budgetsShow = command({
  words: ["budgets", "show"],
  help: [{ synopsis: "budgets show ORG", summary: ["each budget's current window at the ledger: cap, spent, held"] }],
  flags: {},
  async run(args, { clients, out }) {
    if (args.length !== 1) throw new UsageError("budgets show takes exactly one ORG");
    const c = clients();
    const orgId = await resolveOrgId(c, args[0]!);
    const { windows } = await c.ledger.ListBudgets({ org_id: orgId, scope: "" });
    return out.print(
      { org_id: orgId, windows },
      windows
        .map(
          (w) =>
            `${w.scope}\t${w.window_start_ms ? `${iso(w.window_start_ms)} to ${iso(w.window_end_ms)}` : "no window (never resets)"}\tcap ${w.limit_minor}\tspent ${w.spent_minor}\theld ${w.held_minor}`,
        )
        .join("\n") || "(no budget has been used in its current window)",
    );
  },
});
