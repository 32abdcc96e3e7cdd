/**
 * One request, as its usage record says (GET /api/requests/{id}, the record GET /v1/usage/{id}
 * shows): what it cost, its tokens by kind, line items, every upstream attempt and guardrail outcome.
 */
const el = (id: string) => document.getElementById(id) as HTMLElement;
const minorCredits = (minor: number) => (minor / 1_000_000).toLocaleString(undefined, { minimumFractionDigits: 2, maximumFractionDigits: 6 });

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

function tableRow(cells: string[]): HTMLTableRowElement {
  const tr = document.createElement("tr");
  for (const c of cells) {
    const td = document.createElement("td");
    td.textContent = c;
    tr.append(td);
  }
  return tr;
}

interface RequestRecord {
  request_id: string;
  model: string;
  route: string;
  status: number;
  stream: boolean;
  estimated: boolean;
  created_at_ms: number;
  duration_ms: number;
  cost_minor: number;
  input_tokens: number;
  cached_input_tokens: number;
  cache_creation_input_tokens: number;
  output_tokens: number;
  reasoning_tokens: number;
  line_items: Array<{ item?: string; quantity?: number; unit_price_minor?: number; per?: string }>;
  attempts: Array<{ provider?: string; upstream_model?: string; outcome?: string; status?: number; duration_ms?: number; cost_minor?: number; payer?: string }>;
  guardrails: Array<{ plugin?: string; name?: string; outcome?: string }>;
}

async function show(): Promise<void> {
  const id = decodeURIComponent(location.pathname.split("/").pop() ?? "");
  const r = await fetch(`/api/requests/${encodeURIComponent(id)}`, { credentials: "same-origin" });
  if (r.status === 401) return void location.assign("/signin");
  if (!r.ok) {
    el("title").textContent = r.status === 404 ? "Request not found" : "The request could not be read";
    return;
  }
  const rec = (await r.json()) as RequestRecord;
  el("title").textContent = `Request ${rec.request_id}`;
  pairs(el("summary"), [
    ["Cost", minorCredits(rec.cost_minor), String(rec.cost_minor)],
    ["Model", rec.model],
    ["Route", rec.route + (rec.stream ? " (stream)" : "")],
    ["Status", String(rec.status)],
    ["Received", new Date(rec.created_at_ms).toLocaleString()],
    ["Latency", `${rec.duration_ms} ms`],
  ]);
  pairs(el("tokens"), [
    ["Input", String(rec.input_tokens)],
    ["of which cached", String(rec.cached_input_tokens)],
    ["of which cache writes", String(rec.cache_creation_input_tokens)],
    ["Output", String(rec.output_tokens)],
    ["of which reasoning", String(rec.reasoning_tokens)],
    ["Counted by", rec.estimated ? "the gateway (estimated)" : "the provider"],
  ]);
  for (const i of rec.line_items) el("items").append(tableRow([String(i.item ?? ""), String(i.quantity ?? ""), String(i.unit_price_minor ?? ""), String(i.per ?? "")]));
  rec.attempts.forEach((a, n) =>
    el("attempts").append(
      tableRow([
        String(n + 1),
        a.provider ?? "",
        a.upstream_model ?? "",
        a.outcome ?? "",
        String(a.status ?? ""),
        a.duration_ms === undefined ? "" : `${a.duration_ms} ms`,
        a.cost_minor === undefined ? "" : minorCredits(a.cost_minor),
        a.payer ?? "",
      ]),
    ),
  );
  for (const g of rec.guardrails) {
    const li = document.createElement("li");
    li.textContent = `${g.name ?? g.plugin ?? ""}: ${g.outcome ?? ""}`;
    el("guardrails").append(li);
  }
  if (rec.guardrails.length === 0) {
    const li = document.createElement("li");
    li.textContent = "No guardrail rules applied.";
    el("guardrails").append(li);
  }
  document.body.dataset.ready = "true";
}

void show();
