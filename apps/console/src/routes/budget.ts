import { GatewayError } from "@gateway/errors";
import { signed, type Routes } from "../middleware.js";

/** The budget: the monthly cap and this month's spend; set by admins and the billing role (the control-plane enforces it). */
export function budgetRoutes({ ctx, read, write }: Routes): void {
  const { control, ledger } = ctx;
  read("/api/budget", async (_req, res) => {
    const [org, credits] = await Promise.all([control.ConsoleGetOrg({ token: signed(res).token }), ledger.GetCredits({ org_id: signed(res).member.org_id })]);
    return { monthly_budget_minor: org.monthly_budget_minor, month_spent_minor: credits.month_spent_minor };
  });
  write("/api/budget", async (req, res) => {
    const v = (req.body as { monthly_budget_minor?: unknown } | undefined)?.monthly_budget_minor;
    if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0) throw new GatewayError("invalid_request", "monthly_budget_minor must be a non-negative integer (0 removes the cap).");
    const org = await control.ConsoleSetBudget({ token: signed(res).token, monthly_budget_minor: v });
    return { monthly_budget_minor: org.monthly_budget_minor };
  });
}
