/**
 * The overview page: the organization's credits, spend per hour by model (uPlot, loaded before this
 * script), and its request log, newest first, a page at a time. Everything comes from the console's
 * JSON API; the session cookie is HttpOnly, and the sign-out POST carries the session's CSRF token.
 */
declare const uPlot: new (opts: unknown, data: unknown, target: HTMLElement) => unknown;

interface Point {
  bucket_start_ms: number;
  group: string;
  cost_minor: number;
}
interface UsageRow {
  request_id: string;
  created_at_ms: number;
  model: string;
  route: string;
  status: number;
  input_tokens: number;
  output_tokens: number;
  cost_minor: number;
}

const $ = (id: string) => document.getElementById(id) as HTMLElement;
const credits = (minor: number) => (minor / 1_000_000).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 6 });
let csrf = "";

async function getJson<T>(path: string): Promise<T> {
  const r = await fetch(path, { credentials: "same-origin" });
  if (r.status === 401) {
    location.assign("/signin");
    throw new Error("signed out");
  }
  if (!r.ok) throw new Error(`${path}: ${r.status}`);
  return (await r.json()) as T;
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
  td.textContent = message;
  tr.append(td);
  body.append(tr);
}

let cursor: string | null = null;
/** The log's filter as a query string (key, model, route, status), from the filter form. */
function filterQuery(): string {
  const q = new URLSearchParams();
  for (const [name, id] of [
    ["model", "f-model"],
    ["key", "f-key"],
    ["route", "f-route"],
    ["status", "f-status"],
  ] as const) {
    const v = ($(id) as HTMLInputElement).value.trim();
    if (v) q.set(name, v);
  }
  return q.toString();
}

async function loadRequests(): Promise<void> {
  const filter = filterQuery();
  ($("export") as HTMLAnchorElement).href = `/api/requests.csv${filter ? `?${filter}` : ""}`;
  const page = await getJson<{ data: UsageRow[]; next_cursor: string | null }>(`/api/requests?limit=50${filter ? `&${filter}` : ""}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
  for (const r of page.data) {
    const tr = row([new Date(r.created_at_ms).toLocaleString(), "", r.model, r.route, String(r.status), `${r.input_tokens} / ${r.output_tokens}`, credits(r.cost_minor)]);
    const a = document.createElement("a");
    a.href = `/requests/${encodeURIComponent(r.request_id)}`;
    a.textContent = r.request_id;
    tr.children[1]!.append(a);
    $("requests").append(tr);
  }
  if (page.data.length === 0 && !$("requests").hasChildNodes()) emptyRow($("requests"), filterQuery() ? "No request matches." : "No requests yet.");
  cursor = page.next_cursor;
  $("more").hidden = cursor === null;
}

function chart(points: Point[]): void {
  const times = [...new Set(points.map((p) => p.bucket_start_ms))].sort((a, b) => a - b);
  const models = [...new Set(points.map((p) => p.group))].sort();
  const at = new Map(times.map((t, i) => [t, i]));
  const series = models.map((m) => {
    const ys: number[] = new Array(times.length).fill(0);
    for (const p of points) if (p.group === m) ys[at.get(p.bucket_start_ms)!] = p.cost_minor / 1_000_000;
    return ys;
  });
  const palette = ["#0b5cad", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490"];
  const width = Math.max(300, $("chart").clientWidth);
  const now = Date.now() / 1000;
  new uPlot(
    {
      width,
      height: 240,
      scales: { x: { time: true, range: [now - 7 * 86_400, now] } },
      series: [{}, ...models.map((m, i) => ({ label: m, stroke: palette[i % palette.length], width: 2, points: { show: true } }))],
      axes: [{}, { label: "credits", size: 80, values: (_u: unknown, ticks: number[]) => ticks.map((t) => credits(t * 1_000_000)) }],
    },
    [times.map((t) => t / 1000), ...series],
    $("chart"),
  );
  if (times.length === 0) $("chart").textContent = "No spend in the last 7 days.";
}

interface Key {
  id: string;
  name: string;
  prefix: string;
  routes: string[];
  revoked: boolean;
  created_at_ms: number;
}

async function post<T>(path: string, body?: unknown): Promise<T> {
  const r = await fetch(path, { method: "POST", credentials: "same-origin", headers: { "x-csrf-token": csrf, "content-type": "application/json" }, body: JSON.stringify(body ?? {}) });
  const json = (await r.json()) as T & { error?: { message: string } };
  if (!r.ok) throw new Error(json.error?.message ?? `${path}: ${r.status}`);
  return json;
}

async function loadKeys(): Promise<void> {
  const { data } = await getJson<{ data: Key[] }>("/api/keys");
  const body = $("keys");
  body.replaceChildren();
  if (data.length === 0) emptyRow(body, "No keys yet.");
  for (const k of data) {
    const tr = row([k.name || "(unnamed)", `${k.prefix}…`, k.routes.length ? k.routes.join(", ") : "all", new Date(k.created_at_ms).toLocaleString(), k.revoked ? "revoked" : "active"]);
    const td = document.createElement("td");
    if (!k.revoked) {
      const b = document.createElement("button");
      b.type = "button";
      b.textContent = `Revoke ${k.name || k.prefix}`;
      b.addEventListener("click", () => void post(`/api/keys/${encodeURIComponent(k.id)}/revoke`).then(loadKeys, (e: Error) => alert(e.message)));
      td.append(b);
    }
    tr.append(td);
    body.append(tr);
  }
}

$("new-key").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const name = ($("key-name") as HTMLInputElement).value;
  void post<{ secret: string }>("/api/keys", { name }).then(
    (created) => {
      $("secret-value").textContent = created.secret;
      $("secret").hidden = false;
      return loadKeys();
    },
    (e: Error) => alert(e.message),
  );
});

interface ModelPrices {
  id: string;
  routes: string[];
  context_window: number;
  max_output_tokens: number;
  input_price_minor_per_mtok: number;
  cached_input_price_minor_per_mtok: number;
  output_price_minor_per_mtok: number;
  reasoning_price_minor_per_mtok: number;
}

async function loadModels(): Promise<void> {
  const { data } = await getJson<{ data: ModelPrices[] }>("/api/models");
  $("models").replaceChildren(
    ...data.map((m) =>
      row([
        m.id,
        m.routes.join(", "),
        m.context_window.toLocaleString(),
        m.max_output_tokens.toLocaleString(),
        credits(m.input_price_minor_per_mtok),
        credits(m.cached_input_price_minor_per_mtok),
        credits(m.output_price_minor_per_mtok),
        credits(m.reasoning_price_minor_per_mtok),
      ]),
    ),
  );
}

async function loadBudget(): Promise<void> {
  const b = await getJson<{ monthly_budget_minor: number; month_spent_minor: number }>("/api/budget");
  $("budget-now").textContent =
    b.monthly_budget_minor > 0 ? `${credits(b.month_spent_minor)} of ${credits(b.monthly_budget_minor)} spent this month.` : `No cap; ${credits(b.month_spent_minor)} spent this month.`;
  ($("budget-value") as HTMLInputElement).value = String(b.monthly_budget_minor / 1_000_000);
}

$("budget").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const minor = Math.round(Number(($("budget-value") as HTMLInputElement).value) * 1_000_000);
  void post("/api/budget", { monthly_budget_minor: minor }).then(loadBudget, (e: Error) => alert(e.message));
});

async function loadMembers(): Promise<void> {
  const { data } = await getJson<{ data: Array<{ email: string; role: string }> }>("/api/members");
  const list = $("members");
  list.replaceChildren();
  for (const m of data) {
    const li = document.createElement("li");
    li.textContent = `${m.email} (${m.role}) `;
    const b = document.createElement("button");
    b.type = "button";
    b.textContent = "Remove";
    b.setAttribute("aria-label", `Remove ${m.email}`);
    b.addEventListener("click", () => void post("/api/members/remove", { email: m.email }).then(loadMembers, (e: Error) => alert(e.message)));
    li.append(b);
    list.append(li);
  }
}

$("invite").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const email = ($("invite-email") as HTMLInputElement).value;
  const role = ($("invite-role") as HTMLSelectElement).value;
  void post<{ signin_url: string }>("/api/members", { email, role }).then(
    (invited) => {
      $("invite-link").textContent = invited.signin_url;
      $("invited").hidden = false;
      return loadMembers();
    },
    (e: Error) => alert(e.message),
  );
});

async function main(): Promise<void> {
  const session = await getJson<{ member: { email: string; role: string; org_id: string }; csrf_token: string }>("/api/session");
  csrf = session.csrf_token;
  $("who").textContent = `${session.member.email} (${session.member.role}) · ${session.member.org_id}`;
  const overview = await getJson<{
    credits: { balance_minor: number; held_minor: number; month_spent_minor: number; spent_minor: number };
    points: Point[];
    burn_rate_minor_per_day: number;
    days_left: number | null;
  }>("/api/overview?days=7");
  const dl = $("credits");
  for (const [label, v] of [
    ["Balance", overview.credits.balance_minor],
    ["Held", overview.credits.held_minor],
    ["Spent this month", overview.credits.month_spent_minor],
    ["Spent in all", overview.credits.spent_minor],
    ["Burn rate per day (7 days)", overview.burn_rate_minor_per_day],
  ] as const) {
    const pair = document.createElement("div");
    const dt = document.createElement("dt");
    dt.textContent = label;
    const dd = document.createElement("dd");
    dd.textContent = credits(v);
    dd.dataset.minor = String(v);
    pair.append(dt, dd);
    dl.append(pair);
  }
  const left = document.createElement("div");
  const leftLabel = document.createElement("dt");
  leftLabel.textContent = "Days left at that rate";
  const leftValue = document.createElement("dd");
  leftValue.id = "days-left";
  leftValue.textContent = overview.days_left === null ? "—" : overview.days_left.toLocaleString();
  left.append(leftLabel, leftValue);
  dl.append(left);
  chart(overview.points);
  await Promise.all([loadRequests(), loadKeys(), loadMembers(), loadModels(), loadBudget()]);
  document.body.dataset.ready = "true";
}

$("more").addEventListener("click", () => void loadRequests());
$("filter").addEventListener("submit", (ev) => {
  ev.preventDefault();
  cursor = null;
  $("requests").replaceChildren();
  void loadRequests();
});
$("signout").addEventListener("click", async () => {
  await fetch("/api/signout", { method: "POST", credentials: "same-origin", headers: { "x-csrf-token": csrf } });
  location.assign("/signin");
});
void main();
