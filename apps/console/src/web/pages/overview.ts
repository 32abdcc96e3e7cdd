/** The organization's overview (/): its credits and burn rate, and its usage over a window by model or key, with the window's data as CSV. */
import { getJson } from "../api.js";
import { $, pairs, fieldValue } from "../dom.js";
import { clearFeedback, say } from "../feedback.js";
import { money, startPage } from "../shell.js";
import { drawUsage, type Usage } from "../usage.js";

interface Overview extends Usage {
  credits: { balance_minor: number; held_minor: number; month_spent_minor: number; spent_minor: number };
  burn_rate_minor_per_day: number;
  burn_days: number;
  days_left: number | null;
}

/** Days left as a person reads them: "about 12 days", "less than a day". */
const daysLeft = (d: number | null) =>
  d === null ? "— (nothing spent)" : d < 1 ? "less than a day" : d > 3650 ? "more than 10 years" : `about ${Math.floor(d).toLocaleString("en-US")} ${Math.floor(d) === 1 ? "day" : "days"}`;

async function load(): Promise<void> {
  const days = fieldValue("chart-days");
  const group = fieldValue("chart-group");
  $<HTMLAnchorElement>("chart-export").href = `/api/spend.csv?days=${days}&group=${group}`;
  const o = await getJson<Overview>(`/api/overview?days=${days}&group=${group}`);
  const c = o.credits;
  pairs($("credits"), [
    ["Balance", money(c.balance_minor), String(c.balance_minor)],
    ["Held", money(c.held_minor), String(c.held_minor)],
    ["Spent this month", money(c.month_spent_minor), String(c.month_spent_minor)],
    ["Spent in all", money(c.spent_minor), String(c.spent_minor)],
    [`Burn rate per day (over ${o.burn_days} ${o.burn_days === 1 ? "day" : "days"})`, money(o.burn_rate_minor_per_day), String(o.burn_rate_minor_per_day)],
    ["Days left at that rate", daysLeft(o.days_left)],
  ]);
  drawUsage($("usage"), o);
}

void startPage(async () => {
  $("chart-controls").addEventListener("change", () => {
    clearFeedback();
    void load().catch((e: unknown) => say($("chart-status"), e instanceof Error ? e.message : String(e), "error"));
  });
  $("chart-controls").addEventListener("submit", (ev) => ev.preventDefault());
  await load();
});
