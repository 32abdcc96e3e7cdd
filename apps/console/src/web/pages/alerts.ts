/**
 * The organization's alerts (/alerts): its thresholds (percentages of each budget's cap, balances in
 * the operator's money unit), its webhook with its signing secret — shown once, after it is made or
 * rotated, with a copy button — and the alerts, newest first, a page at a time, each with its
 * webhook delivery. Billing members and admins set the thresholds, admins the webhook (the API
 * enforces both); viewers read. Removing the webhook and rotating the secret ask first.
 */
import { exactCredits } from "../../shared/money.js";
import { getJson, post } from "../api.js";
import { $, count, dayTime, emptyRow, fieldValue, pairs, row } from "../dom.js";
import { onClick, onSubmit } from "../feedback.js";
import { keyName, type Key } from "../keys-view.js";
import { type Budgets, setsBudgets } from "../budget-view.js";
import { member, money, moneyFormatOf, startPage } from "../shell.js";

interface AlertSettings {
  budget_pcts: number[];
  balance_minor: number[];
  webhook_url: string;
  /** Only in the answer that made it. */
  webhook_secret?: string;
  webhook_secret_prefix: string;
  secret_created_at_ms: number;
  previous_secret_until_ms: number;
}

interface Alert {
  id: string;
  kind: "budget" | "balance";
  scope: string;
  threshold_pct: number;
  limit_minor: number;
  spent_minor: number;
  threshold_minor: number;
  balance_minor: number;
  created_at_ms: number;
  delivery_state: string;
  attempts: number;
  last_status: number;
  last_error: string;
  next_attempt_at_ms: number;
}

/** Alerts listed per page. */
const PAGE = 25;
let settings: AlertSettings | null = null;
/** Names of the organization's keys and projects, for the budgets alerts name by id. */
const names = new Map<string, string>();

/** What a budget alert's scope is, as people call it: "the organization", "key checkout-service", "end user alice". */
function scopeLabel(scope: string): string {
  if (scope === "org") return "the organization";
  const [kind, ...rest] = scope.split(":");
  const id = rest.join(":");
  if (kind === "key") return `key ${names.get(scope) ?? id}`;
  if (kind === "project") return `project ${names.get(scope) ?? id}`;
  if (kind === "user") return `end user ${id}`;
  return scope;
}

/** A time today as "5:37 PM", another day's with its date. */
const when = (ms: number) => (new Date(ms).toDateString() === new Date().toDateString() ? new Date(ms).toLocaleTimeString(undefined, { timeStyle: "short" }) : dayTime(ms));

function delivery(a: Alert): string {
  if (a.delivery_state === "pending") return a.next_attempt_at_ms ? `pending, next try ${when(a.next_attempt_at_ms)}` : "pending";
  if (a.delivery_state === "failed") return "failed (given up)";
  if (a.delivery_state === "no_webhook") return "not sent: no webhook";
  return a.delivery_state;
}

function alertRow(a: Alert): HTMLTableRowElement {
  const tr = row([
    dayTime(a.created_at_ms),
    a.kind,
    a.kind === "budget" ? scopeLabel(a.scope) : "the organization's balance",
    a.kind === "budget" ? `${count(a.threshold_pct)} % of ${money(a.limit_minor)}` : `at or below ${money(a.threshold_minor)}`,
    a.kind === "budget" ? `${money(a.spent_minor)} spent` : money(a.balance_minor),
    delivery(a),
    count(a.attempts),
    [a.last_status ? `HTTP ${a.last_status}` : "", a.last_error.replace(/\bwebhook_url\b/, "the webhook URL")].filter(Boolean).join(": ") || "—",
  ]);
  // The last error wraps rather than widening the table past a laptop's window.
  tr.lastElementChild!.className = "wrap";
  return tr;
}

/** The alerts table: `load()` the next page, `load(true)` from the newest again. */
function alertList(): (fresh?: boolean) => Promise<void> {
  let next: string | null = null;
  let generation = 0;
  const load = async (fresh = false) => {
    const mine = fresh ? ++generation : generation;
    const page = await getJson<{ data: Alert[]; next_cursor: string | null }>(`/api/alerts?limit=${PAGE}${!fresh && next ? `&cursor=${encodeURIComponent(next)}` : ""}`);
    if (mine !== generation) return;
    if (fresh) $("alerts").replaceChildren();
    $("alerts").append(...page.data.map(alertRow));
    if (!$("alerts").hasChildNodes()) emptyRow($("alerts"), "No alerts yet.");
    next = page.next_cursor;
    $("alerts-more").hidden = next === null;
  };
  onClick($<HTMLButtonElement>("alerts-more"), async () => {
    await load();
    return "";
  });
  return load;
}

function drawSettings(s: AlertSettings): void {
  settings = s;
  pairs($("thresholds-now"), [
    ["Budget alerts", s.budget_pcts.length ? `at ${s.budget_pcts.map((p) => `${count(p)} %`).join(", ")} of each budget's cap` : "none"],
    ["Balance alerts", s.balance_minor.length ? `at or below ${s.balance_minor.map(money).join(", ")}` : "none"],
  ]);
  pairs($("webhook-now"), [
    ["Webhook", s.webhook_url || "none: alerts are only listed"],
    ["Signing secret", s.webhook_secret_prefix ? `${s.webhook_secret_prefix}…, made ${dayTime(s.secret_created_at_ms)}` : "none"],
    ...(s.previous_secret_until_ms ? [["The previous secret signs too until", dayTime(s.previous_secret_until_ms)] as [string, string]] : []),
  ]);
  $<HTMLInputElement>("al-pcts").value = s.budget_pcts.join(" ");
  $<HTMLInputElement>("al-balance").value = s.balance_minor.map(exactCredits).join(" ");
  $<HTMLInputElement>("al-url").value = s.webhook_url;
  $("rotate-box").hidden = member().role !== "admin" || !s.webhook_url;
}

/** The secret just made, shown this once with a copy button; a reload never shows it again. */
function showSecret(secret: string): void {
  $("secret-value").textContent = secret;
  $("secret").hidden = false;
  $("copy-secret").focus();
}

function forms(): void {
  onSubmit(
    $<HTMLFormElement>("thresholds"),
    async () => {
      const s = await post<AlertSettings>("/api/alerts/settings", { budget_pcts: fieldValue("al-pcts"), balance: fieldValue("al-balance") });
      drawSettings(s);
      const parts = [
        s.budget_pcts.length ? `${s.budget_pcts.map((p) => `${p} %`).join(", ")} of each budget` : "",
        s.balance_minor.length ? `a balance at or below ${s.balance_minor.map(money).join(", ")}` : "",
      ];
      return parts.some(Boolean) ? `Saved: alerts at ${parts.filter(Boolean).join(" and at ")}.` : "Saved: no thresholds, so no alerts.";
    },
    { keep: true },
  );
  onSubmit(
    $<HTMLFormElement>("webhook"),
    async () => {
      const s = await post<AlertSettings>("/api/alerts/settings", { webhook_url: fieldValue("al-url").trim() });
      drawSettings(s);
      if (s.webhook_secret) showSecret(s.webhook_secret);
      else $("secret").hidden = true;
      if (!s.webhook_url) return "Removed: alerts are only listed now.";
      return `Saved: alerts are sent to ${s.webhook_url}.${s.webhook_secret ? " Copy its signing secret below: it is shown only now." : ""}`;
    },
    {
      keep: true,
      confirm: () =>
        fieldValue("al-url").trim() === "" && settings?.webhook_url
          ? {
              title: "Remove the webhook?",
              body: "Alerts are no longer sent, only listed here, and the signing secret is deleted: a webhook set later gets a new one.",
              confirm: "Remove webhook",
            }
          : null,
    },
  );
  onClick(
    $<HTMLButtonElement>("rotate"),
    async () => {
      const drop = $<HTMLInputElement>("al-drop").checked;
      const s = await post<AlertSettings>("/api/alerts/rotate-secret", { drop_previous: drop });
      drawSettings(s);
      $<HTMLInputElement>("al-drop").checked = false;
      if (s.webhook_secret) showSecret(s.webhook_secret);
      return drop
        ? "Rotated: only the new secret signs from now on. Copy it below: it is shown only now."
        : `Rotated: the old secret signs beside the new one until ${dayTime(s.previous_secret_until_ms)}. Copy the new one below: it is shown only now.`;
    },
    {
      confirm: () =>
        $<HTMLInputElement>("al-drop").checked
          ? {
              title: "Rotate the secret and stop the old one?",
              body: "A new secret signs every delivery from now on and the old one stops at once: the receiver refuses deliveries until it has the new one.",
              confirm: "Rotate secret",
            }
          : {
              title: "Rotate the signing secret?",
              body: "A new secret signs every delivery from now on; the old one signs beside it for 24 hours while the receiver moves to the new one.",
              confirm: "Rotate secret",
            },
    },
  );
  onClick($<HTMLButtonElement>("copy-secret"), async () => {
    const secret = $("secret-value").textContent ?? "";
    try {
      await navigator.clipboard.writeText(secret);
    } catch {
      // Selected instead, for the reader to copy.
      getSelection()?.selectAllChildren($("secret-value"));
      throw new Error("The browser did not let the page copy: the secret is selected, copy it yourself.");
    }
    return "Copied.";
  });
}

/** The names of the organization's keys and projects (budget alerts name them by id); without them, the ids. */
async function loadNames(): Promise<void> {
  const [keys, budgets] = await Promise.all([getJson<{ data: Key[] }>("/api/keys").catch(() => ({ data: [] })), getJson<Budgets>("/api/budgets").catch(() => null)]);
  for (const k of keys.data) names.set(`key:${k.id}`, keyName(k));
  for (const p of budgets?.projects ?? []) names.set(`project:${p.id}`, p.name);
}

void startPage(async (m) => {
  for (const f of document.querySelectorAll<HTMLElement>(".billing-only")) f.hidden = !setsBudgets(m.role);
  for (const f of document.querySelectorAll<HTMLElement>(".admin-only")) f.hidden = m.role !== "admin";
  for (const u of document.querySelectorAll(".money-unit")) u.textContent = moneyFormatOf().unit;
  forms();
  const [s] = await Promise.all([getJson<AlertSettings>("/api/alerts/settings"), loadNames()]);
  drawSettings(s);
  await alertList()(true);
});
