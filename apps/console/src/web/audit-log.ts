/**
 * The audit log's table (#audit, with #audit-more for older entries): `load()` the next page,
 * `load(true)` from the newest again. An operator's shows each entry's organization. Amounts read in
 * the operator's money format, catalog fields by the names the price form gives them.
 */
import { windowWords } from "../shared/budget-window.js";
import { fieldLabel } from "../shared/price-fields.js";
import { getJson } from "./api.js";
import { $, dayTime, emptyRow, row } from "./dom.js";
import { onClick } from "./feedback.js";
import { money } from "./shell.js";

interface AuditEntry {
  at_ms: number;
  actor_email: string;
  org_id: string;
  action: string;
  target: string;
  detail: unknown;
}

const isBudget = (v: unknown): v is { limit_minor: number; window: string } =>
  typeof v === "object" && v !== null && typeof (v as { limit_minor?: unknown }).limit_minor === "number" && typeof (v as { window?: unknown }).window === "string";

/** An entry's detail as `field: value` pairs: amounts (`…_minor`) and budgets ("5.00 credits a day") in the money format, a catalog change as "model gw-x changed (Input price per 1M tokens, …)". */
export function auditDetail(detail: unknown): string {
  if (detail === null || typeof detail !== "object" || Array.isArray(detail)) return detail === undefined || detail === null ? "" : JSON.stringify(detail);
  const change = (c: { kind?: string; id?: string; change?: string; fields?: string[] }) => `${c.kind} ${c.id} ${c.change}${c.fields?.length ? ` (${c.fields.map(fieldLabel).join(", ")})` : ""}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(detail as Record<string, unknown>)) {
    if (v === undefined || v === null || v === "" || (Array.isArray(v) && v.length === 0)) continue;
    const name = k.replace(/_minor$/, "").replace(/_/g, " ");
    if (k.endsWith("_minor") && typeof v === "number") parts.push(`${name}: ${money(v)}`);
    else if (k.endsWith("_minor") && Array.isArray(v) && v.every((x) => typeof x === "number")) parts.push(`${name}: ${v.map(money).join(", ")}`);
    else if (isBudget(v)) parts.push(`${name}: ${v.limit_minor ? `${money(v.limit_minor)} ${windowWords(v.window)}` : "no cap"}`);
    else if (k === "changes" && Array.isArray(v)) parts.push(v.map(change).join("; "));
    else parts.push(`${name}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  }
  return parts.join(" · ");
}

export function auditLog(withOrg: boolean): (fresh?: boolean) => Promise<void> {
  let next: string | null = null;
  // A newer reload makes an older one's answer stale (two reloads at once must not list twice).
  let generation = 0;
  const load = async (fresh = false) => {
    const mine = fresh ? ++generation : generation;
    const page = await getJson<{ data: AuditEntry[]; next_cursor: string | null }>(`/api/audit?limit=50${!fresh && next ? `&cursor=${encodeURIComponent(next)}` : ""}`);
    if (mine !== generation) return;
    if (fresh) $("audit").replaceChildren();
    for (const e of page.data) {
      const who = withOrg ? [e.actor_email, e.org_id || "(gateway)"] : [e.actor_email];
      $("audit").append(row([dayTime(e.at_ms), ...who, e.action.replace(/_/g, " "), e.target, auditDetail(e.detail)]));
    }
    if (page.data.length === 0 && !$("audit").hasChildNodes()) emptyRow($("audit"), "Nothing changed through the console yet.");
    next = page.next_cursor;
    $("audit-more").hidden = next === null;
  };
  onClick($<HTMLButtonElement>("audit-more"), async () => {
    await load();
    return "";
  });
  return load;
}
