/**
 * The operator's page: organizations (search, credits, spend) and top-ups, provider health from
 * every attempt in the ledger, the catalog edited through a reviewed difference, and the audit log
 * of every console action. A top-up form carries one idempotency key until it succeeds, so a
 * double click or a retry after a lost answer credits once.
 */
interface OrgRow {
  id: string;
  name: string;
  in_trial: boolean;
  monthly_budget_minor: number;
  credits: { balance_minor: number; held_minor: number; month_spent_minor: number; window_spent_minor: number; window_requests: number } | null;
}

async function loadOrgs(): Promise<void> {
  const q = ($("org-q") as HTMLInputElement).value.trim();
  const { data } = await getJson<{ data: OrgRow[] }>(`/api/operator/orgs${q ? `?q=${encodeURIComponent(q)}` : ""}`);
  const body = $("orgs");
  body.replaceChildren();
  if (data.length === 0) emptyRow(body, q ? "No organization matches." : "No organizations yet.");
  for (const o of data) {
    const c = o.credits;
    const tr = row([
      o.name,
      o.id,
      c ? credits(c.balance_minor) : "",
      c ? credits(c.held_minor) : "",
      c ? credits(c.month_spent_minor) : "",
      c ? credits(c.window_spent_minor) : "",
      c ? c.window_requests.toLocaleString() : "",
      o.monthly_budget_minor ? credits(o.monthly_budget_minor) : "none",
      o.in_trial ? "yes" : "no",
    ]);
    (tr.children[2] as HTMLElement).dataset.minor = String(c?.balance_minor ?? 0);
    body.append(tr);
  }
}

let topUpKey = crypto.randomUUID();
/** How often this page sent each top-up (a double submit sends one twice: the second answer is a duplicate of its own first). */
const sends = new Map<string, number>();
$("topup").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const org = ($("topup-org") as HTMLInputElement).value.trim();
  const amount = Math.round(Number(($("topup-amount") as HTMLInputElement).value) * 1_000_000);
  const key = topUpKey;
  sends.set(key, (sends.get(key) ?? 0) + 1);
  void post<{ duplicate: boolean; credits: { balance_minor: number } }>("/api/operator/top-ups", { org_id: org, amount_minor: amount, idempotency_key: key }).then((r) => {
    // The next top-up is another one; this key stays spent.
    topUpKey = crypto.randomUUID();
    // A duplicate of a top-up sent once from here: an earlier send (whose answer was lost) made it.
    $("topup-done").textContent =
      r.duplicate && sends.get(key) === 1
        ? `This top-up was already made: ${org} has ${credits(r.credits.balance_minor)} credits.`
        : `Done: ${credits(amount)} credits added; ${org} now has ${credits(r.credits.balance_minor)} credits.`;
    $("topup-done").hidden = false;
    return Promise.all([loadOrgs(), operatorAudit(true)]);
  }, showError);
});

interface Health {
  provider: string;
  upstream_model: string;
  attempts: number;
  failures: number;
  timeouts: number;
  error_rate: number;
  p50_ms: number;
  p95_ms: number;
  last_failure_ms: number;
  breaker_open: boolean;
}

async function loadHealth(): Promise<void> {
  const { data } = await getJson<{ data: Health[] }>("/api/operator/health?minutes=60");
  const body = $("health");
  body.replaceChildren();
  if (data.length === 0) emptyRow(body, "No upstream attempts in the last hour.");
  for (const d of data)
    body.append(
      row([
        d.provider,
        d.upstream_model,
        d.attempts.toLocaleString(),
        d.failures.toLocaleString(),
        `${(d.error_rate * 100).toFixed(1)} %`,
        d.timeouts.toLocaleString(),
        `${d.p50_ms} / ${d.p95_ms} ms`,
        d.last_failure_ms ? new Date(d.last_failure_ms).toLocaleString() : "—",
        d.breaker_open ? "likely open" : "closed",
      ]),
    );
}

let catalogVersion = 0;
let reviewed: string | null = null;
async function loadCatalog(): Promise<void> {
  const c = await getJson<{ version: number; document: string }>("/api/operator/catalog");
  catalogVersion = c.version;
  $("catalog-version").textContent = `Version ${c.version}.`;
  ($("catalog-doc") as HTMLTextAreaElement).value = c.document;
}

interface Change {
  kind: string;
  id: string;
  change: string;
  fields: Array<{ field: string; before: unknown; after: unknown }>;
}
function showChanges(changes: Change[]): void {
  const body = $("catalog-diff");
  body.replaceChildren();
  if (changes.length === 0) emptyRow(body, "This document changes nothing.");
  for (const c of changes) {
    if (c.change === "added") body.append(row([c.kind, c.id, "added", "", "", ""]));
    for (const f of c.fields) body.append(row([c.kind, c.id, "changed", f.field, JSON.stringify(f.before), JSON.stringify(f.after)]));
  }
}

$("catalog").addEventListener("submit", (ev) => {
  ev.preventDefault();
  const document_ = ($("catalog-doc") as HTMLTextAreaElement).value;
  void post<{ version: number; changes: Change[] }>("/api/operator/catalog/diff", { document: document_ }).then((r) => {
    catalogVersion = r.version;
    showChanges(r.changes);
    reviewed = r.changes.length ? document_ : null;
    ($("catalog-apply") as HTMLButtonElement).disabled = reviewed === null;
  }, showError);
});
// Editing the document again needs another review before it can be applied.
$("catalog-doc").addEventListener("input", () => {
  reviewed = null;
  ($("catalog-apply") as HTMLButtonElement).disabled = true;
});
$("catalog-apply").addEventListener("click", () => {
  if (reviewed === null) return;
  void post<{ version: number; changes: Change[] }>("/api/operator/catalog", { document: reviewed, base_version: catalogVersion }).then((r) => {
    $("catalog-done").textContent = `Applied: the catalog is at version ${r.version}.`;
    $("catalog-done").hidden = false;
    reviewed = null;
    ($("catalog-apply") as HTMLButtonElement).disabled = true;
    return Promise.all([loadCatalog(), operatorAudit(true)]);
  }, showError);
});

const operatorAudit = auditLog(true);

$("org-search").addEventListener("submit", (ev) => {
  ev.preventDefault();
  void loadOrgs().catch(showError);
});

async function showOperator(): Promise<void> {
  await startSession();
  await Promise.all([loadOrgs(), loadHealth(), loadCatalog(), operatorAudit()]);
  document.body.dataset.ready = "true";
}
void showOperator();
