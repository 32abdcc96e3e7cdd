/** The monthly budget (/budget) and this month's spend; admins and billing members set it, in the operator's money unit. */
import { getJson, post } from "../api.js";
import { $, pairs, fieldValue } from "../dom.js";
import { onSubmit } from "../feedback.js";
import { money, moneyFormatOf, startPage } from "../shell.js";

async function loadBudget(): Promise<void> {
  const b = await getJson<{ monthly_budget_minor: number; month_spent_minor: number }>("/api/budget");
  pairs($("budget-now"), [
    ["Budget per month", b.monthly_budget_minor ? money(b.monthly_budget_minor) : "no cap", String(b.monthly_budget_minor)],
    ["Spent this month", money(b.month_spent_minor), String(b.month_spent_minor)],
    ["Left this month", b.monthly_budget_minor ? money(Math.max(0, b.monthly_budget_minor - b.month_spent_minor)) : "—"],
  ]);
}

void startPage(async (m) => {
  $("budget").hidden = m.role !== "admin" && m.role !== "billing";
  for (const u of document.querySelectorAll(".money-unit")) u.textContent = moneyFormatOf().unit;
  onSubmit($<HTMLFormElement>("budget"), async () => {
    const r = await post<{ monthly_budget_minor: number }>("/api/budget", { monthly_budget: fieldValue("budget-value") });
    await loadBudget();
    return r.monthly_budget_minor ? `The budget is ${money(r.monthly_budget_minor)} a month.` : "The budget is removed: no cap.";
  });
  await loadBudget();
});
