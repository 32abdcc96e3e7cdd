// biome-ignore-all lint/correctness/noUnusedVariables: the page scripts loaded after this one (one global scope) use these
/**
 * What every console page shares, loaded before the page's own script (plain scripts, one global
 * scope, no bundler): element lookup, credits from minor units, the JSON API with the session's
 * CSRF token on changes, tables and definition lists built from text (never HTML).
 */
const $ = (id: string) => document.getElementById(id) as HTMLElement;
const credits = (minor: number) => (minor / 1_000_000).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 6 });
/** A day, or a day and time, in the reader's locale and short (wide tables stay within a laptop's window). */
const day = (ms: number) => new Date(ms).toLocaleDateString(undefined, { dateStyle: "medium" });
const dayTime = (ms: number) => new Date(ms).toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
/** The session's CSRF token (from GET /api/session), sent on every POST. */
let csrf = "";

interface SessionInfo {
  member: { email: string; role: string; org_id: string };
  csrf_token: string;
}

async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path, { credentials: "same-origin" });
  if (r.status === 401) {
    location.assign("/signin");
    throw new Error("signed out");
  }
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return (await r.json()) as T;
}

async function post<T>(path: string, body?: unknown): Promise<T> {
  const r = await fetch(path, { method: "POST", credentials: "same-origin", headers: { "x-csrf-token": csrf, "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
  const json = (await r.json()) as T & { error?: { message: string } };
  if (!r.ok) throw new Error(json.error?.message ?? `${path}: ${r.status}`);
  return json;
}

/** The signed-in member in the header, the CSRF token kept, and the sign-out button wired. */
async function startSession(): Promise<SessionInfo> {
  const session = await getJson<SessionInfo>("/api/session");
  csrf = session.csrf_token;
  const who = document.getElementById("who");
  if (who) who.textContent = `${session.member.email} (${session.member.role})${session.member.org_id ? ` · ${session.member.org_id}` : ""}`;
  document.getElementById("signout")?.addEventListener("click", async () => {
    await fetch("/api/signout", { method: "POST", credentials: "same-origin", headers: { "x-csrf-token": csrf } });
    location.assign("/signin");
  });
  return session;
}

function row(cells: string[]): HTMLTableRowElement {
  const tr = document.createElement("tr");
  for (const c of cells) {
    const td = document.createElement("td");
    td.textContent = c;
    td.title = c;
    tr.append(td);
  }
  return tr;
}

/** A table body's one row saying it is empty (spanning every column). */
function emptyRow(body: HTMLElement, message: string): void {
  const tr = document.createElement("tr");
  const td = document.createElement("td");
  td.colSpan = body.closest("table")?.querySelectorAll("thead th").length ?? 1;
  td.className = "empty";
  // The message stays in view of a table wider than the window (it would scroll away with the columns).
  const text = document.createElement("span");
  text.textContent = message;
  td.append(text);
  tr.append(td);
  body.append(tr);
}

/** label/value pairs into a definition list; `minor` (the exact amount) kept in data-minor. */
function pairs(target: HTMLElement, entries: Array<[string, string, string?]>): void {
  for (const [label, value, minor] of entries) {
    const pair = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = value;
    if (minor !== undefined) dd.dataset.minor = minor;
    pair.append(dt, dd);
    target.append(pair);
  }
}

/** A button that runs `action` and shows its failure in the page's status line (role=alert). */
function button(label: string, action: () => Promise<unknown>, ariaLabel?: string): HTMLButtonElement {
  const b = document.createElement("button");
  b.type = "button";
  b.textContent = label;
  if (ariaLabel) b.setAttribute("aria-label", ariaLabel);
  b.addEventListener("click", () => void action().catch(showError));
  return b;
}

/** Shows a failed action's message in the page's `#error` line (an alert for screen readers). */
function showError(e: unknown): void {
  const line = document.getElementById("error");
  const message = e instanceof Error ? e.message : String(e);
  if (!line) return alert(message);
  line.textContent = message;
  line.hidden = false;
}

/**
 * An audit entry's detail as a reader wants it: `field: value` pairs; amounts in minor units
 * (`…_minor`) in credits; a catalog change as "model gw-x changed (field, …)"; other values as
 * short JSON. An empty list or absent value is left out.
 */
function auditDetail(detail: unknown): string {
  if (detail === null || typeof detail !== "object" || Array.isArray(detail)) return detail === undefined || detail === null ? "" : JSON.stringify(detail);
  const change = (c: { kind?: string; id?: string; change?: string; fields?: string[] }) => `${c.kind} ${c.id} ${c.change}${c.fields?.length ? ` (${c.fields.join(", ")})` : ""}`;
  const parts: string[] = [];
  for (const [k, v] of Object.entries(detail as Record<string, unknown>)) {
    if (v === undefined || v === null || (Array.isArray(v) && v.length === 0)) continue;
    const name = k.replace(/_minor$/, "").replace(/_/g, " ");
    if (k.endsWith("_minor") && typeof v === "number") parts.push(`${name}: ${credits(v)} credits`);
    else if (k === "changes" && Array.isArray(v)) parts.push(v.map(change).join("; "));
    else parts.push(`${name}: ${typeof v === "string" ? v : JSON.stringify(v)}`);
  }
  return parts.join(" · ");
}

interface AuditEntry {
  at_ms: number;
  actor_email: string;
  org_id: string;
  action: string;
  target: string;
  detail: unknown;
}

/**
 * The audit log's table (#audit, with #audit-more for older entries): `load()` the next page,
 * `load(true)` from the newest again. An operator's shows each entry's organization.
 */
function auditLog(withOrg: boolean): (fresh?: boolean) => Promise<void> {
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
  $("audit-more").addEventListener("click", () => void load().catch(showError));
  return load;
}
