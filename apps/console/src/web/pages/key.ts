/**
 * One key (/keys/{id}): what it is and may do (its limits, its budget with what it spent and holds in
 * the current window and when that resets in the organization's time zone, its project and tags), its
 * usage per day and model over 30 days (spend, requests, tokens, errors, p95 latency, cache hits), its newest requests. Admins and billing members set its cap, window,
 * project and tags here; admins revoke it, after confirming.
 */
import { exactCredits } from "../../shared/money.js";
import { getJson, post } from "../api.js";
import { $, count, dayTime, fieldValue, fillTable, pairs } from "../dom.js";
import { onClick, onSubmit } from "../feedback.js";
import { keyName, limitsOf, type Key } from "../keys-view.js";
import { type Budgets, capText, windowText, type LedgerWindow, projectOptions, setsBudgets, windowOptions } from "../budget-view.js";
import { logRow, requestHref, type LogRecord } from "../request-log.js";
import { money, moneyFormatOf, startPage } from "../shell.js";
import { drawUsage, type Point } from "../usage.js";

interface KeyPage {
  key: Key;
  /** The key's budget in its current window at the ledger (null before its first request under it). */
  budget_window: LedgerWindow | null;
  days: number;
  /** The key's usage per day and model. */
  points: Point[];
  /** Each model's p95 latency over the 30 days, ms. */
  p95_ms: Record<string, number | null>;
  recent: LogRecord[];
}

/** What the key is and may do; its budget in the organization's time zone, its project by name. */
function facts(k: Key, w: KeyPage["budget_window"], b: Budgets): void {
  const current = w && (w.window_end_ms === 0 || w.window_end_ms > Date.now()) ? w : undefined;
  pairs($("facts"), [
    ["Key", `${k.prefix}…`],
    ["State", k.revoked ? "revoked" : "active"],
    ["Routes", k.routes.length ? k.routes.join(", ") : "all"],
    ["Models", k.models.length ? k.models.join(", ") : "all"],
    ["Own limits per minute", limitsOf(k)],
    ["Budget", capText(k.budget)],
    ...(k.budget?.limit_minor ? [["This window", windowText(k.budget, current, b.time_zone)] as [string, string]] : []),
    ["Project", k.project_id ? (b.projects.find((p) => p.id === k.project_id)?.name ?? k.project_id) : "none"],
    ["Tags", k.tags?.length ? k.tags.join(", ") : "none"],
    ["Created", dayTime(k.created_at_ms)],
  ]);
}

/** The budget form with the key's settings; saving answers beside it and redraws the facts. */
function budgetForm(p: KeyPage, b: Budgets): void {
  windowOptions($<HTMLSelectElement>("kb-window"));
  projectOptions($<HTMLSelectElement>("kb-project"), b.projects, "None");
  const show = (k: Key) => {
    $<HTMLInputElement>("kb-cap").value = exactCredits(k.budget?.limit_minor ?? 0);
    $<HTMLSelectElement>("kb-window").value = k.budget?.window || "month";
    $<HTMLSelectElement>("kb-project").value = k.project_id ?? "";
    $<HTMLInputElement>("kb-tags").value = (k.tags ?? []).join(", ");
  };
  show(p.key);
  onSubmit(
    $<HTMLFormElement>("key-budget"),
    async () => {
      const tags = fieldValue("kb-tags")
        .split(",")
        .map((t) => t.trim())
        .filter(Boolean);
      const r = await post<{ key: Key }>(`/api/keys/${encodeURIComponent(p.key.id)}/budget`, { limit: fieldValue("kb-cap"), window: fieldValue("kb-window"), project: fieldValue("kb-project"), tags });
      // The window at the ledger is read again: a new cap or window may have opened another.
      const again = await getJson<KeyPage>(`/api/keys/${encodeURIComponent(p.key.id)}`);
      p.key = again.key;
      p.budget_window = again.budget_window;
      facts(p.key, p.budget_window, b);
      show(p.key);
      const project = b.projects.find((x) => x.id === r.key.project_id)?.name;
      return `Saved: ${capText(r.key.budget)}, ${project ? `in project ${project}` : "in no project"}, ${r.key.tags?.length ? `tagged ${r.key.tags.join(", ")}` : "no tags"}.`;
    },
    { keep: true },
  );
}

void startPage(async (m) => {
  const id = decodeURIComponent(location.pathname.split("/").pop() ?? "");
  const [p, b] = await Promise.all([getJson<KeyPage>(`/api/keys/${encodeURIComponent(id)}`), getJson<Budgets>("/api/budgets")]);
  const name = keyName(p.key);
  $("title").textContent = name;
  document.title = `${name} · Gateway console`;
  facts(p.key, p.budget_window, b);
  for (const f of document.querySelectorAll<HTMLElement>(".billing-only")) f.hidden = !setsBudgets(m.role) || p.key.revoked;
  for (const u of document.querySelectorAll(".money-unit")) u.textContent = moneyFormatOf().unit;
  budgetForm(p, b);
  const sum = (f: (x: Point) => number) => p.points.reduce((n, x) => n + f(x), 0);
  pairs($("key-totals"), [
    ["Spent", money(sum((x) => x.cost_minor)), String(sum((x) => x.cost_minor))],
    ["Requests", count(sum((x) => x.requests))],
    ["Tokens in / out", `${count(sum((x) => x.input_tokens))} / ${count(sum((x) => x.output_tokens))}`],
  ]);
  drawUsage($("usage"), { days: p.days, bucket: "day", group_by: "model", points: p.points, p95_ms: p.p95_ms });
  fillTable(
    $("recent"),
    p.recent.map((r) => logRow(r, requestHref)),
    "No requests with this key yet.",
  );
  $<HTMLAnchorElement>("all-requests").href = `/requests?key=${encodeURIComponent(p.key.id)}`;
  const revoke = $<HTMLButtonElement>("revoke");
  revoke.parentElement!.hidden = m.role !== "admin" || p.key.revoked;
  onClick(
    revoke,
    async () => {
      await post(`/api/keys/${encodeURIComponent(p.key.id)}/revoke`);
      p.key = { ...p.key, revoked: true };
      facts(p.key, p.budget_window, b);
      revoke.hidden = true;
      return `Revoked: ${name} no longer works.`;
    },
    { confirm: () => ({ title: `Revoke ${name}?`, body: "Requests with this key are refused from now on. A revoked key cannot be restored.", confirm: "Revoke key" }) },
  );
});
