/** The operator's organizations (/operator): search by part of the id or name, each with its credits and spend; a name opens its page. */
import { getJson } from "../api.js";
import { $, count, fillTable, link, row, fieldValue } from "../dom.js";
import { onSubmit } from "../feedback.js";
import { money, startPage } from "../shell.js";

interface OrgRow {
  id: string;
  name: string;
  in_trial: boolean;
  monthly_budget_minor: number;
  credits: { balance_minor: number; held_minor: number; month_spent_minor: number; window_spent_minor: number; window_requests: number } | null;
}

async function loadOrgs(): Promise<void> {
  const q = fieldValue("org-q").trim();
  const { data } = await getJson<{ data: OrgRow[] }>(`/api/operator/orgs${q ? `?q=${encodeURIComponent(q)}` : ""}`);
  const rows = data.map((o) => {
    const c = o.credits;
    const tr = row([
      link(`/operator/orgs/${encodeURIComponent(o.id)}`, o.name),
      o.id,
      c ? money(c.balance_minor) : "",
      c ? money(c.held_minor) : "",
      c ? money(c.month_spent_minor) : "",
      c ? money(c.window_spent_minor) : "",
      c ? count(c.window_requests) : "",
      o.monthly_budget_minor ? money(o.monthly_budget_minor) : "none",
      o.in_trial ? "yes" : "no",
    ]);
    (tr.children[2] as HTMLElement).dataset.minor = String(c?.balance_minor ?? 0);
    return tr;
  });
  fillTable($("orgs"), rows, q ? "No organization matches." : "No organizations yet.");
}

void startPage(async () => {
  // A search answers in its table; only a failure is said beside the form.
  onSubmit(
    $<HTMLFormElement>("org-search"),
    async () => {
      await loadOrgs();
      return "";
    },
    { keep: true },
  );
  await loadOrgs();
});
