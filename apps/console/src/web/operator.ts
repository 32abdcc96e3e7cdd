/**
 * The operator's page: organizations (search, credits, spend) and top-ups, provider health from
 * every attempt in the ledger, the catalog edited through a reviewed difference, the MCP tool
 * definitions waiting for approval (each approved by the digest of the difference shown), and the
 * audit log of every console action. A top-up form carries one idempotency key until it succeeds, so a
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

type DiffLine = { op: " " | "-" | "+"; text: string } | { op: "…"; count: number };
interface PendingTool {
  server: string;
  tool: string;
  change: "changed" | "new";
  pending_digest: string;
  pending_since_ms: number;
  approved_digest: string;
  approved_at_ms: number;
  approved_by: string;
  diff: DiffLine[];
}

/** A difference as text in a focusable, scrollable block: removed lines in `del`, added in `ins`, folded runs as a count. */
function diffBlock(lines: DiffLine[], label: string): HTMLPreElement {
  const pre = document.createElement("pre");
  pre.className = "diff";
  pre.tabIndex = 0;
  pre.setAttribute("role", "region");
  pre.setAttribute("aria-label", label);
  for (const l of lines) {
    const el = document.createElement(l.op === "-" ? "del" : l.op === "+" ? "ins" : "span");
    if (l.op === "…") {
      el.className = "fold";
      el.textContent = `  ⋯ ${l.count} unchanged ${l.count === 1 ? "line" : "lines"}`;
    } else el.textContent = `${l.op} ${l.text}`;
    pre.append(el);
  }
  return pre;
}

/**
 * One tool waiting: what it is, the difference to read, and its Approve button, which approves the
 * digest of exactly this difference; a refusal (the server changed it again since) is shown beside it.
 */
function pendingTool(p: PendingTool, n: number): HTMLElement {
  const article = document.createElement("article");
  article.className = "pending-tool";
  article.setAttribute("aria-labelledby", `mcp-${n}-title`);
  const h = document.createElement("h3");
  h.id = `mcp-${n}-title`;
  const badge = document.createElement("strong");
  badge.className = "badge";
  badge.textContent = p.change.toUpperCase();
  h.append(`${p.server} · ${p.tool} `, badge);
  const facts = document.createElement("dl");
  facts.className = "facts";
  pairs(facts, [
    ["Server", p.server],
    ["Tool", p.tool],
    ["Seen", dayTime(p.pending_since_ms)],
    ["Pending definition", p.pending_digest.slice(0, 12)],
    ["Approved definition", p.approved_digest ? `${p.approved_digest.slice(0, 12)}, by ${p.approved_by}, ${dayTime(p.approved_at_ms)}` : "none: new since the server's first listing"],
  ]);
  const what =
    p.change === "new" ? `The whole pending definition of ${p.tool} (${p.server})` : `The approved definition of ${p.tool} (${p.server}, lines marked -) against the pending one (lines marked +)`;
  const actions = document.createElement("div");
  actions.className = "approve";
  const refused = document.createElement("p");
  refused.id = `mcp-${n}-error`;
  refused.className = "error";
  refused.setAttribute("role", "alert");
  refused.hidden = true;
  const approve = document.createElement("button");
  approve.type = "button";
  approve.textContent = "Approve";
  approve.setAttribute("aria-label", `Approve ${p.tool} of ${p.server}, definition ${p.pending_digest.slice(0, 12)}`);
  approve.setAttribute("aria-describedby", refused.id);
  approve.addEventListener("click", () => {
    approve.disabled = true;
    refused.hidden = true;
    void post<{ digest: string }>("/api/operator/mcp-pins/approve", { server: p.server, tool: p.tool, digest: p.pending_digest }).then(
      (r) => {
        $("mcp-done").textContent = `Approved: ${p.tool} of ${p.server} is pinned to definition ${r.digest.slice(0, 12)}; every replica serves it within a catalog refresh.`;
        $("mcp-done").hidden = false;
        return Promise.all([loadPendingTools().catch(pendingToolsFailed), operatorAudit(true).catch(showError)]);
      },
      (e: unknown) => {
        refused.textContent = e instanceof Error ? e.message : String(e);
        refused.hidden = false;
        approve.disabled = false;
      },
    );
  });
  actions.append(approve, refused);
  article.append(h, facts, diffBlock(p.diff, what), actions);
  return article;
}

async function loadPendingTools(): Promise<void> {
  const { data } = await getJson<{ data: PendingTool[] }>("/api/operator/mcp-pins");
  const list = $("mcp-pending");
  list.replaceChildren(...data.map(pendingTool));
  if (data.length === 0) {
    const none = document.createElement("p");
    none.className = "muted";
    none.textContent = "No MCP tool definition waits for approval.";
    list.append(none);
  }
}
function pendingToolsFailed(e: unknown): void {
  const failed = document.createElement("p");
  failed.className = "error";
  failed.textContent = `The MCP tools waiting for approval could not be read: ${e instanceof Error ? e.message : String(e)}`;
  $("mcp-pending").replaceChildren(failed);
}
$("mcp-reload").addEventListener("click", () => {
  $("mcp-done").hidden = true;
  void loadPendingTools().catch(pendingToolsFailed);
});

const operatorAudit = auditLog(true);

$("org-search").addEventListener("submit", (ev) => {
  ev.preventDefault();
  void loadOrgs().catch(showError);
});

async function showOperator(): Promise<void> {
  await startSession();
  // The section says itself when the pending tools cannot be read (a control-plane older than this console): the page's other sections still work.
  await Promise.all([loadOrgs(), loadHealth(), loadCatalog(), loadPendingTools().catch(pendingToolsFailed), operatorAudit()]);
  document.body.dataset.ready = "true";
}
void showOperator();
