/**
 * One request, as its usage record says (GET /api/requests/{id}, the record GET /v1/usage/{id}
 * shows): what it cost, its tokens by kind, line items, every upstream attempt and guardrail outcome.
 */
interface RequestRecord {
  request_id: string;
  model: string;
  route: string;
  provider: string;
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
  line_items: Array<{ item?: string; quantity?: number; unit_price_minor?: number; per?: string; attributes?: Record<string, string> }>;
  attempts: Array<{ provider?: string; upstream_model?: string; outcome?: string; status?: number; duration_ms?: number; cost_minor?: number; payer?: string }>;
  guardrails: Array<{ plugin?: string; name?: string; outcome?: string }>;
}

async function show(): Promise<void> {
  await startSession();
  const id = decodeURIComponent(location.pathname.split("/").pop() ?? "");
  const r = await fetch(`/api/requests/${encodeURIComponent(id)}`, { credentials: "same-origin" });
  if (r.status === 401) return void location.assign("/signin");
  if (!r.ok) {
    $("title").textContent = r.status === 404 ? "Request not found" : "The request could not be read";
    return;
  }
  const rec = (await r.json()) as RequestRecord;
  $("title").textContent = `Request ${rec.request_id}`;
  pairs($("summary"), [
    ["Cost", credits(rec.cost_minor), String(rec.cost_minor)],
    ["Model", rec.model],
    ["Route", rec.route + (rec.stream ? " (stream)" : "")],
    ["Status", String(rec.status)],
    ["Received", new Date(rec.created_at_ms).toLocaleString()],
    ["Latency", `${rec.duration_ms} ms`],
  ]);
  // An input rule's denial: no provider asked, nothing counted or billed (an output denial of a tool call is billed and names its server).
  const deniedFirst = rec.attempts.length === 0 && rec.provider === "" && rec.cost_minor === 0 && rec.guardrails.some((g) => g.outcome === "denied");
  pairs($("tokens"), [
    ["Input", String(rec.input_tokens)],
    ["of which cached", String(rec.cached_input_tokens)],
    ["of which cache writes", String(rec.cache_creation_input_tokens)],
    ["Output", String(rec.output_tokens)],
    ["of which reasoning", String(rec.reasoning_tokens)],
    ["Counted by", deniedFirst ? "nobody (no provider was asked)" : rec.estimated ? "the gateway (estimated)" : "the provider"],
  ]);
  // Attributes say what an item was: an image's size, a tool call's server, tool, outcome and result size.
  const details = (a: Record<string, string> | undefined) =>
    Object.entries(a ?? {})
      .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`)
      .join(", ");
  for (const i of rec.line_items)
    $("items").append(row([String(i.item ?? ""), String(i.quantity ?? ""), i.unit_price_minor === undefined ? "" : credits(i.unit_price_minor), String(i.per ?? ""), details(i.attributes)]));
  if (rec.line_items.length === 0 && rec.cost_minor === 0) emptyRow($("items"), "None: nothing was billed.");
  if (deniedFirst) emptyRow($("attempts"), "None: a guardrail rule denied the request before any provider was asked, and nothing was billed.");
  else if (rec.attempts.length === 0) emptyRow($("attempts"), "No upstream attempts recorded for this request (a tool call is recorded in its line item).");
  rec.attempts.forEach((a, n) =>
    $("attempts").append(
      row([
        String(n + 1),
        a.provider ?? "",
        a.upstream_model ?? "",
        a.outcome ?? "",
        String(a.status ?? ""),
        a.duration_ms === undefined ? "" : `${a.duration_ms} ms`,
        a.cost_minor === undefined ? "" : credits(a.cost_minor),
        a.payer ?? "",
      ]),
    ),
  );
  for (const g of rec.guardrails) {
    const li = document.createElement("li");
    li.textContent = `${g.name ?? g.plugin ?? ""}: ${g.outcome ?? ""}`;
    $("guardrails").append(li);
  }
  if (rec.guardrails.length === 0) {
    const li = document.createElement("li");
    li.textContent = "No guardrail rules applied.";
    $("guardrails").append(li);
  }
  document.body.dataset.ready = "true";
}

void show();
