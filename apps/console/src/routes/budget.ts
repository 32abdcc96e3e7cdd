import { bodyOf, creditsOf } from "../params.js";
import { signed, type Routes } from "../middleware.js";

/** The budget: the monthly cap and this month's spend; set by admins and the billing role (the control-plane enforces it), in credits. */
export function budgetRoutes({ ctx, read, write }: Routes): void {
  const { control, ledger } = ctx;
  read("/api/budget", async (_req, res) => {
    const [org, credits] = await Promise.all([control.ConsoleGetOrg({ token: signed(res).token }), ledger.GetCredits({ org_id: signed(res).member.org_id })]);
    return { monthly_budget_minor: org.monthly_budget_minor, month_spent_minor: credits.month_spent_minor };
  });
  write("/api/budget", async (req, res) => {
    const minor = creditsOf(bodyOf(req), "monthly_budget", "The monthly budget", signed(res).money, { note: " (0 removes the cap)" });
    const org = await control.ConsoleSetBudget({ token: signed(res).token, monthly_budget_minor: minor });
    return { monthly_budget_minor: org.monthly_budget_minor };
  });
}
