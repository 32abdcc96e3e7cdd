/**
 * The request log (/requests): newest first, a keyset page at a time, filtered by a period (presets
 * or from … to), model and key (dropdowns: the organization's models and keys by name), route and
 * status. The filter is the page's URL (/requests?key=…&period=24h), so a key's page links to its
 * requests and a filtered log can be shared; the CSV export takes the same filter.
 */
import { getJson } from "../api.js";
import { $, el, fillTable, fieldValue } from "../dom.js";
import { onClick, onSubmit } from "../feedback.js";
import { logRow, requestHref, type LogRecord } from "../request-log.js";
import { startPage } from "../shell.js";

/** A preset period's length, ms. */
const PERIODS: Record<string, number> = { "1h": 3_600_000, "24h": 86_400_000, "7d": 7 * 86_400_000, "30d": 30 * 86_400_000 };
const FIELDS = ["period", "from", "to", "model", "key", "route", "status"] as const;

let cursor: string | null = null;

/** The filter as the ledger's query (from_ms/to_ms from the period, now). */
function apiQuery(): URLSearchParams {
  const q = new URLSearchParams();
  for (const name of ["model", "key", "route", "status"] as const) if (fieldValue(`f-${name}`).trim()) q.set(name, fieldValue(`f-${name}`).trim());
  const period = fieldValue("f-period");
  if (PERIODS[period]) q.set("from_ms", String(Date.now() - PERIODS[period]!));
  if (period === "custom") {
    if (fieldValue("f-from")) q.set("from_ms", String(new Date(fieldValue("f-from")).getTime()));
    if (fieldValue("f-to")) q.set("to_ms", String(new Date(fieldValue("f-to")).getTime()));
  }
  return q;
}

/** The form from the page's URL, and the URL from the form. */
function formFromUrl(): void {
  const q = new URLSearchParams(location.search);
  for (const f of FIELDS) if (q.has(f)) $<HTMLInputElement>(`f-${f}`).value = q.get(f) ?? "";
}
function urlFromForm(): void {
  const q = new URLSearchParams();
  for (const f of FIELDS) if (fieldValue(`f-${f}`)) q.set(f, fieldValue(`f-${f}`));
  if (q.get("period") !== "custom") {
    q.delete("from");
    q.delete("to");
  }
  history.replaceState(null, "", `/requests${q.size ? `?${q}` : ""}`);
}
const showRange = () => {
  for (const f of document.querySelectorAll<HTMLElement>(".custom-range")) f.hidden = fieldValue("f-period") !== "custom";
};

async function loadPage(fresh: boolean): Promise<void> {
  const q = apiQuery();
  $<HTMLAnchorElement>("export").href = `/api/requests.csv${q.size ? `?${q}` : ""}`;
  if (!fresh && cursor) q.set("cursor", cursor);
  q.set("limit", "50");
  const page = await getJson<{ data: LogRecord[]; next_cursor: string | null }>(`/api/requests?${q}`);
  const rows = page.data.map((r) => logRow(r, requestHref));
  if (fresh) fillTable($("requests"), rows, q.size > 1 ? "No request matches." : "No requests yet.");
  else $("requests").append(...rows);
  cursor = page.next_cursor;
  $("more").hidden = cursor === null;
}

/** The dropdowns: models, and keys by name (a revoked one says so). */
async function loadOptions(): Promise<void> {
  const o = await getJson<{ models: string[]; keys: Array<{ id: string; name: string; revoked: boolean }> }>("/api/log-options");
  const keep = (id: string) => new URLSearchParams(location.search).get(id) ?? "";
  $("f-model").append(...o.models.map((m) => el("option", m, { value: m })));
  $("f-key").append(...o.keys.map((k) => el("option", `${k.name}${k.revoked ? " (revoked)" : ""}`, { value: k.id })));
  $<HTMLSelectElement>("f-model").value = keep("model");
  $<HTMLSelectElement>("f-key").value = keep("key");
}

void startPage(async () => {
  await loadOptions();
  formFromUrl();
  showRange();
  $("f-period").addEventListener("change", showRange);
  // A filter answers in the table; only a failure is said beside the form.
  onSubmit(
    $<HTMLFormElement>("filter"),
    async () => {
      urlFromForm();
      await loadPage(true);
      return "";
    },
    { keep: true },
  );
  $("find").addEventListener("submit", (ev) => {
    ev.preventDefault();
    location.assign(requestHref(fieldValue("find-id").trim()));
  });
  onClick($<HTMLButtonElement>("more"), async () => {
    await loadPage(false);
    return "";
  });
  await loadPage(true);
});
