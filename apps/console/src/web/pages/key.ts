/** One key (/keys/{id}): what it is and may do (its limits, its budget and what it spent of it, its project and tags), its usage per day over 30 days, its newest requests; admins revoke it here too, after confirming. */
import { getJson, post } from "../api.js";
import { $, count, dayTime, fillTable, pairs } from "../dom.js";
import { onClick } from "../feedback.js";
import { keyName, limitsOf, type Key } from "../keys-view.js";
import { logRow, requestHref, type LogRecord } from "../request-log.js";
import { money, startPage } from "../shell.js";
import { drawUsage, type Point } from "../usage.js";

interface KeyPage {
  key: Key;
  /** The key's budget in its current window at the ledger (null before its first request under it). */
  budget_window: { limit_minor: number; spent_minor: number; held_minor: number; window_end_ms: number } | null;
  days: number;
  points: Point[];
  recent: LogRecord[];
}

/** The key's own budget as words: "5.00 credits a day, 1.20 spent (0.10 held) until Nov 29". */
function budgetOf(k: Key, w: KeyPage["budget_window"]): string {
  const b = k.budget;
  if (!b?.limit_minor) return "none";
  const cap = `${money(b.limit_minor)}${b.window === "none" ? " in all" : ` a ${b.window}`}`;
  if (!w) return `${cap}, nothing spent in this window`;
  return `${cap}, ${money(w.spent_minor)} spent${w.held_minor ? ` (${money(w.held_minor)} held)` : ""}${w.window_end_ms ? ` until ${dayTime(w.window_end_ms)}` : ""}`;
}

function facts(k: Key, w: KeyPage["budget_window"]): void {
  pairs($("facts"), [
    ["Key", `${k.prefix}…`],
    ["State", k.revoked ? "revoked" : "active"],
    ["Routes", k.routes.length ? k.routes.join(", ") : "all"],
    ["Models", k.models.length ? k.models.join(", ") : "all"],
    ["Own limits per minute", limitsOf(k)],
    ["Budget", budgetOf(k, w)],
    ["Project", k.project_id || "none"],
    ["Tags", k.tags?.length ? k.tags.join(", ") : "none"],
    ["Created", dayTime(k.created_at_ms)],
  ]);
}

void startPage(async (m) => {
  const id = decodeURIComponent(location.pathname.split("/").pop() ?? "");
  const p = await getJson<KeyPage>(`/api/keys/${encodeURIComponent(id)}`);
  const name = keyName(p.key);
  $("title").textContent = name;
  document.title = `${name} · Gateway console`;
  facts(p.key, p.budget_window);
  const sum = (f: (x: Point) => number) => p.points.reduce((n, x) => n + f(x), 0);
  pairs($("key-totals"), [
    ["Spent", money(sum((x) => x.cost_minor)), String(sum((x) => x.cost_minor))],
    ["Requests", count(sum((x) => x.requests))],
    ["Tokens in / out", `${count(sum((x) => x.input_tokens))} / ${count(sum((x) => x.output_tokens))}`],
  ]);
  drawUsage($("usage"), { days: p.days, bucket: "day", group_by: "key", points: p.points, labels: { [p.key.id]: name } });
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
      facts({ ...p.key, revoked: true }, p.budget_window);
      revoke.hidden = true;
      return `Revoked: ${name} no longer works.`;
    },
    { confirm: () => ({ title: `Revoke ${name}?`, body: "Requests with this key are refused from now on. A revoked key cannot be restored.", confirm: "Revoke key" }) },
  );
});
