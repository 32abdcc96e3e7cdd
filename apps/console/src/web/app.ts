/**
 * The organization's page: credits, spend over time by model or by key (uPlot, loaded before this
 * script) with its data as CSV, the budget, models, keys, guardrail rules and how often they fired,
 * members, the request log (filtered, a keyset page at a time, exported as CSV) and, for admins, the
 * audit log. Everything comes from the console's JSON API (common.ts). Forms a member's role may not
 * use are not shown; the API refuses them anyway (403).
 */
declare const uPlot: new (opts: unknown, data: unknown, target: HTMLElement) => { destroy(): void };

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

let cursor: string | null = null;
/** The log's filter as a query string (key, model, route, status, time), from the filter form. */
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
  for (const [name, id] of [
    ["from_ms", "f-from"],
    ["to_ms", "f-to"],
  ] as const) {
    const v = ($(id) as HTMLInputElement).value;
    if (v) q.set(name, String(new Date(v).getTime()));
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

let plot: { destroy(): void } | undefined;
function chart(points: Point[], days: number, by: string): void {
  plot?.destroy();
  plot = undefined;
  $("chart").replaceChildren();
  $("chart").setAttribute("aria-label", `Spend per ${days <= 7 ? "hour" : "day"} by ${by}, last ${days} days`);
  const times = [...new Set(points.map((p) => p.bucket_start_ms))].sort((a, b) => a - b);
  if (times.length === 0) {
    $("chart").textContent = `No spend in the last ${days} days.`;
    return;
  }
  const groups = [...new Set(points.map((p) => p.group))].sort();
  const at = new Map(times.map((t, i) => [t, i]));
  const series = groups.map((m) => {
    const ys: number[] = new Array(times.length).fill(0);
    for (const p of points) if (p.group === m) ys[at.get(p.bucket_start_ms)!] = p.cost_minor / 1_000_000;
    return ys;
  });
  const palette = ["#0b5cad", "#c2410c", "#15803d", "#7e22ce", "#b91c1c", "#0e7490"];
  const now = Date.now() / 1000;
  plot = new uPlot(
    {
      width: Math.max(300, $("chart").clientWidth),
      height: 240,
      scales: { x: { time: true, range: [now - days * 86_400, now] } },
      series: [{}, ...groups.map((m, i) => ({ label: m, stroke: palette[i % palette.length], width: 2, points: { show: true } }))],
      axes: [{}, { label: "credits", size: 80, values: (_u: unknown, ticks: number[]) => ticks.map((t) => credits(t * 1_000_000)) }],
    },
    [times.map((t) => t / 1000), ...series],
    $("chart"),
  );
}

interface Overview {
  credits: { balance_minor: number; held_minor: number; month_spent_minor: number; spent_minor: number };
  days: number;
  points: Point[];
  burn_rate_minor_per_day: number;
  days_left: number | null;
}

async function loadOverview(): Promise<void> {
  const days = ($("chart-days") as HTMLSelectElement).value;
  const group = ($("chart-group") as HTMLSelectElement).value;
  ($("chart-export") as HTMLAnchorElement).href = `/api/spend.csv?days=${days}&group=${group}`;
  const o = await getJson<Overview>(`/api/overview?days=${days}&group=${group}`);
  $("credits").replaceChildren();
  pairs($("credits"), [
    ["Balance", credits(o.credits.balance_minor), String(o.credits.balance_minor)],
    ["Held", credits(o.credits.held_minor), String(o.credits.held_minor)],
    ["Spent this month", credits(o.credits.month_spent_minor), String(o.credits.month_spent_minor)],
    ["Spent in all", credits(o.credits.spent_minor), String(o.credits.spent_minor)],
    [`Burn rate per day (${o.days} days)`, credits(o.burn_rate_minor_per_day), String(o.burn_rate_minor_per_day)],
    ["Days left at that rate", o.days_left === null ? "—" : o.days_left.toLocaleString()],
  ]);
  chart(o.points, o.days, group);
}

interface Key {
  id: string;
  name: string;
  prefix: string;
  routes: string[];
  models: string[];
  rpm_limit: number;
  tpm_limit: number;
  revoked: boolean;
  created_at_ms: number;
  spent_30d_minor: number;
  last_used_hour_ms: number | null;
}

let role = "viewer";

async function loadKeys(): Promise<void> {
  const { data } = await getJson<{ data: Key[] }>("/api/keys");
  const body = $("keys");
  body.replaceChildren();
  if (data.length === 0) emptyRow(body, "No keys yet.");
  for (const k of data) {
    const limits = [k.rpm_limit ? `${k.rpm_limit} requests` : "", k.tpm_limit ? `${k.tpm_limit} tokens` : ""].filter(Boolean).join(", ") || "none";
    const tr = row([
      k.name || "(unnamed)",
      `${k.prefix}…`,
      k.routes.length ? k.routes.join(", ") : "all",
      k.models.length ? k.models.join(", ") : "all",
      limits,
      credits(k.spent_30d_minor),
      k.last_used_hour_ms === null ? "not in 30 days" : dayTime(k.last_used_hour_ms),
      day(k.created_at_ms),
      k.revoked ? "revoked" : "active",
    ]);
    const td = document.createElement("td");
    if (!k.revoked && role === "admin") td.append(button("Revoke", () => post(`/api/keys/${encodeURIComponent(k.id)}/revoke`).then(loadKeys), `Revoke ${k.name || k.prefix}`));
    tr.append(td);
    body.append(tr);
  }
}

const list = (v: string) =>
  v
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

$("new-key").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const value = (id: string) => ($(id) as HTMLInputElement).value;
  void post<{ secret: string }>("/api/keys", {
    name: value("key-name"),
    routes: list(value("key-routes")),
    models: list(value("key-models")),
    rpm_limit: Number(value("key-rpm") || 0),
    tpm_limit: Number(value("key-tpm") || 0),
  }).then((created) => {
    $("secret-value").textContent = created.secret;
    $("secret").hidden = false;
    return loadKeys();
  }, showError);
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
  void post("/api/budget", { monthly_budget_minor: minor }).then(loadBudget, showError);
});

interface Rule {
  plugin: string;
  name?: string;
  action?: string;
  stage?: string;
}

async function loadGuardrails(): Promise<void> {
  const g = await getJson<{ rules: Rule[]; counts: Array<{ plugin: string; name: string; outcome: string; count: number }> }>("/api/guardrails");
  const body = $("guardrails");
  body.replaceChildren();
  if (g.rules.length === 0) emptyRow(body, "No guardrail rules: ask the gateway's operator to set some (docs/guardrails.md).");
  for (const r of g.rules) {
    const fired = (outcome: string) => String(g.counts.filter((c) => c.plugin === r.plugin && c.name === (r.name ?? "") && c.outcome === outcome).reduce((n, c) => n + c.count, 0));
    body.append(row([r.name ?? "(unnamed)", r.plugin, r.action ?? "deny", r.stage ?? "input", fired("masked"), fired("denied"), fired("logged"), fired("error"), fired("pass")]));
  }
}

async function loadMembers(): Promise<void> {
  const { data } = await getJson<{ data: Array<{ email: string; role: string }> }>("/api/members");
  const members = $("members");
  members.replaceChildren();
  for (const m of data) {
    const li = document.createElement("li");
    li.textContent = `${m.email} (${m.role}) `;
    if (role === "admin") li.append(button("Remove", () => post("/api/members/remove", { email: m.email }).then(loadMembers), `Remove ${m.email}`));
    members.append(li);
  }
}

$("invite").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const email = ($("invite-email") as HTMLInputElement).value;
  const invitedRole = ($("invite-role") as HTMLSelectElement).value;
  void post<{ signin_url: string }>("/api/members", { email, role: invitedRole }).then((invited) => {
    $("invite-link").textContent = invited.signin_url;
    $("invited").hidden = false;
    return loadMembers();
  }, showError);
});

const orgAudit = auditLog(false);

async function showOrganization(): Promise<void> {
  const session = await startSession();
  role = session.member.role;
  // Forms the role may use (the API enforces the same).
  for (const f of document.querySelectorAll<HTMLElement>(".admin-only")) f.hidden = role !== "admin";
  for (const f of document.querySelectorAll<HTMLElement>(".billing-only")) f.hidden = role !== "admin" && role !== "billing";
  $("audit-section").hidden = role !== "admin";
  await Promise.all([loadOverview(), loadRequests(), loadKeys(), loadMembers(), loadModels(), loadBudget(), loadGuardrails(), role === "admin" ? orgAudit() : undefined]);
  document.body.dataset.ready = "true";
}

$("find").addEventListener("submit", (ev) => {
  ev.preventDefault();
  location.assign(`/requests/${encodeURIComponent(($("find-id") as HTMLInputElement).value.trim())}`);
});
$("chart-controls").addEventListener("change", () => void loadOverview().catch(showError));
$("chart-controls").addEventListener("submit", (ev) => ev.preventDefault());
$("more").addEventListener("click", () => void loadRequests().catch(showError));
$("filter").addEventListener("submit", (ev) => {
  ev.preventDefault();
  cursor = null;
  $("requests").replaceChildren();
  void loadRequests().catch(showError);
});
void showOrganization();
