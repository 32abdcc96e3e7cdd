/**
 * One organization as the operator sees it (/operator/orgs/{id}): what it is, its credits with a
 * top-up (asked first; one idempotency key per top-up, kept until it succeeds, so a double click or a
 * retry after a lost answer credits once), its usage by model or key, its newest requests and any of
 * them by trace id, its keys and members.
 */
import { getJson, post } from "../api.js";
import { $, day, el, fillTable, pairs, row, fieldValue } from "../dom.js";
import { clearFeedback, onSubmit, say } from "../feedback.js";
import { createdCell, keyName, scopeCells, type Key } from "../keys-view.js";
import { logRow, type LogRecord } from "../request-log.js";
import { money, moneyFormatOf, startPage } from "../shell.js";
import { drawUsage, type Usage } from "../usage.js";
import { capText, type Budget } from "../budget-view.js";
import { parseCredits } from "../../shared/money.js";

interface OrgPage {
  org: { id: string; name: string; in_trial: boolean; budget?: Budget | null; created_at_ms: number; enabled_models: string[] };
  keys: Key[];
  members: Array<{ email: string; role: string }>;
  overview: Usage & { credits: { balance_minor: number; held_minor: number; month_spent_minor: number; spent_minor: number }; burn_rate_minor_per_day: number };
  recent: LogRecord[];
}

const orgId = decodeURIComponent(location.pathname.split("/").pop() ?? "");
const requestHref = (id: string) => `/operator/orgs/${encodeURIComponent(orgId)}/requests/${encodeURIComponent(id)}`;

function draw(p: OrgPage): void {
  $("title").textContent = p.org.name;
  document.title = `${p.org.name} · Gateway console`;
  pairs($("facts"), [
    ["Id", p.org.id],
    ["Created", day(p.org.created_at_ms)],
    ["Trial", p.org.in_trial ? "yes" : "no"],
    // The organization's cap with its window (a day's, a week's …), as its Budgets page says it.
    ["Budget", capText(p.org.budget)],
    ["Models", p.org.enabled_models.join(", ") || "none"],
  ]);
  const c = p.overview.credits;
  pairs($("credits"), [
    ["Balance", money(c.balance_minor), String(c.balance_minor)],
    ["Held", money(c.held_minor), String(c.held_minor)],
    ["Spent this month", money(c.month_spent_minor), String(c.month_spent_minor)],
    ["Burn rate per day", money(p.overview.burn_rate_minor_per_day)],
  ]);
  drawUsage($("usage"), p.overview);
  fillTable(
    $("recent"),
    p.recent.map((r) => logRow(r, requestHref)),
    "No requests yet.",
  );
  fillTable(
    $("keys"),
    p.keys.map((k) => row([keyName(k), `${k.prefix}…`, ...scopeCells(k), createdCell(k), k.revoked ? "revoked" : "active"])),
    "No keys.",
  );
  $("members").replaceChildren(...p.members.map((m) => el("li", `${m.email} (${m.role})`)));
  if (p.members.length === 0) $("members").append(el("li", "No console members."));
}

const load = async () => draw(await getJson<OrgPage>(`/api/operator/orgs/${encodeURIComponent(orgId)}?days=${fieldValue("chart-days")}&group=${fieldValue("chart-group")}`));

/** The top-up form: asks first, naming the amount and the organization; one idempotency key until it succeeds. */
function topUps(name: () => string): void {
  let key = crypto.randomUUID();
  onSubmit(
    $<HTMLFormElement>("topup"),
    async () => {
      const r = await post<{ duplicate: boolean; amount_text: string; balance_text: string }>("/api/operator/top-ups", { org_id: orgId, amount: fieldValue("topup-amount"), idempotency_key: key });
      // The next top-up is another one; this key stays spent.
      key = crypto.randomUUID();
      void load();
      return r.duplicate ? `This top-up was already made: ${name()} has ${r.balance_text}.` : `Done: ${r.amount_text} added; ${name()} now has ${r.balance_text}.`;
    },
    {
      confirm: () => {
        const minor = parseCredits(fieldValue("topup-amount"));
        // Not an amount: no question; the server's refusal says what it expects.
        return minor === null ? null : { title: `Top up ${name()}?`, body: `Add ${money(minor)} to ${name()} (${orgId}). A top-up cannot be undone.`, confirm: "Top up" };
      },
    },
  );
}

void startPage(async () => {
  for (const u of document.querySelectorAll(".money-unit")) u.textContent = moneyFormatOf().unit;
  $("chart-controls").addEventListener("change", () => {
    clearFeedback();
    void load().catch((e: unknown) => say($("chart-status"), e instanceof Error ? e.message : String(e), "error"));
  });
  $("chart-controls").addEventListener("submit", (ev) => ev.preventDefault());
  $("find").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.assign(requestHref(fieldValue("find-id").trim()));
  });
  topUps(() => $("title").textContent ?? orgId);
  await load();
});
