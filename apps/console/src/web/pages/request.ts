/**
 * One request (/requests/{id}, an operator's /operator/orgs/{org}/requests/{id}, or an operator's
 * trace lookup /operator/trace/{id} of any organization), as its usage record says: what it cost,
 * its tokens by kind, line items, every upstream attempt and guardrail outcome, and for a request
 * refused before routing the error it was answered with.
 */
import { $, count, el, emptyRow, pairs, row } from "../dom.js";
import { money, price, startPage } from "../shell.js";

interface RequestRecord {
  request_id: string;
  org_id: string;
  /** A refusal record's (refused before routing): the error code and message; "" otherwise. */
  error_code?: string;
  error_message?: string;
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

/** The record's API path and the page to go back to, from this page's URL. */
function where(): { api: string; back: string; backLabel: string; anyOrg?: boolean } {
  const parts = location.pathname.split("/").map(decodeURIComponent);
  const id = parts.at(-1) ?? "";
  // The trace lookup: any organization's (audited at the control-plane).
  if (parts[1] === "operator" && parts[2] === "trace") return { api: `/api/operator/trace/${encodeURIComponent(id)}`, back: "/operator/trace", backLabel: "Trace lookup", anyOrg: true };
  if (parts[1] === "operator") {
    const org = parts[3] ?? "";
    return { api: `/api/operator/orgs/${encodeURIComponent(org)}/requests/${encodeURIComponent(id)}`, back: `/operator/orgs/${encodeURIComponent(org)}`, backLabel: org };
  }
  return { api: `/api/requests/${encodeURIComponent(id)}`, back: "/requests", backLabel: "Requests" };
}

function summary(rec: RequestRecord, deniedFirst: boolean, anyOrg: boolean): void {
  pairs($("summary"), [
    ...(anyOrg ? [["Organization", rec.org_id] as [string, string]] : []),
    ...(rec.error_code ? [["Refused", rec.error_code] as [string, string]] : []),
    ["Cost", money(rec.cost_minor), String(rec.cost_minor)],
    ["Model", rec.model],
    ["Route", rec.route + (rec.stream ? " (stream)" : "")],
    ["Status", String(rec.status)],
    ["Received", new Date(rec.created_at_ms).toLocaleString()],
    ["Latency", `${count(rec.duration_ms)} ms`],
  ]);
  pairs($("tokens"), [
    ["Input", count(rec.input_tokens)],
    ["of which cached", count(rec.cached_input_tokens)],
    ["of which cache writes", count(rec.cache_creation_input_tokens)],
    ["Output", count(rec.output_tokens)],
    ["of which reasoning", count(rec.reasoning_tokens)],
    ["Counted by", deniedFirst || rec.error_code ? "nobody (no provider was asked)" : rec.estimated ? "the gateway (estimated)" : "the provider"],
  ]);
}

function details(rec: RequestRecord, deniedFirst: boolean): void {
  // Attributes say what an item was: an image's size, a tool call's server, tool, outcome and result size.
  const attrs = (a: Record<string, string> | undefined) =>
    Object.entries(a ?? {})
      .map(([k, v]) => `${k.replace(/_/g, " ")}: ${v}`)
      .join(", ");
  for (const i of rec.line_items)
    $("items").append(row([String(i.item ?? ""), String(i.quantity ?? ""), i.unit_price_minor === undefined ? "" : price(i.unit_price_minor), String(i.per ?? ""), attrs(i.attributes)]));
  if (rec.line_items.length === 0 && rec.cost_minor === 0) emptyRow($("items"), "None: nothing was billed.");
  if (rec.error_code) emptyRow($("attempts"), "None: the gateway refused the request before routing it (see Refused above), and nothing was billed.");
  else if (deniedFirst) emptyRow($("attempts"), "None: a guardrail rule denied the request before any provider was asked, and nothing was billed.");
  else if (rec.attempts.length === 0) emptyRow($("attempts"), "No upstream attempts recorded for this request (a tool call is recorded in its line item).");
  rec.attempts.forEach((a, n) =>
    $("attempts").append(
      row([
        String(n + 1),
        a.provider ?? "",
        a.upstream_model ?? "",
        a.outcome ?? "",
        String(a.status ?? ""),
        a.duration_ms === undefined ? "" : `${count(a.duration_ms)} ms`,
        a.cost_minor === undefined ? "" : money(a.cost_minor),
        a.payer ?? "",
      ]),
    ),
  );
  const outcomes = rec.guardrails.map((g) => el("li", `${g.name ?? g.plugin ?? ""}: ${g.outcome ?? ""}`));
  $("guardrails").replaceChildren(...(outcomes.length ? outcomes : [el("li", "No guardrail rules applied.")]));
}

const w = where();
// The header marks the page it belongs to.
if (w.anyOrg) document.body.dataset.nav = "/operator/trace";

void startPage(async () => {
  const back = $<HTMLAnchorElement>("back");
  back.href = w.back;
  back.textContent = w.backLabel;
  const r = await fetch(w.api, { credentials: "same-origin" });
  if (r.status === 401) return void location.assign("/signin");
  if (!r.ok) {
    $("title").textContent = r.status === 404 ? "Request not found" : "The request could not be read";
    $("summary").replaceWith(
      el(
        "p",
        r.status === 404
          ? w.anyOrg
            ? "No organization has a request with this id (a refused request whose record was dropped or not yet applied is not found either)."
            : "No request of this organization has this id (a request another organization made is not shown either)."
          : `The console answered ${r.status}.`,
      ),
    );
    return;
  }
  const rec = (await r.json()) as RequestRecord;
  $("title").textContent = `Request ${rec.request_id}`;
  document.title = `Request ${rec.request_id} · Gateway console`;
  // An input rule's denial: no provider asked, nothing counted or billed (an output denial of a tool call is billed and names its server).
  const deniedFirst = rec.attempts.length === 0 && rec.provider === "" && rec.cost_minor === 0 && rec.guardrails.some((g) => g.outcome === "denied");
  // Refused before routing: what the caller was answered, as text (it may repeat what they sent).
  if (rec.error_code) $("summary").before(el("p", `Refused before routing (${rec.status} ${rec.error_code}): ${rec.error_message ?? ""}`, { id: "refusal", role: "note" }));
  summary(rec, deniedFirst, w.anyOrg === true);
  details(rec, deniedFirst);
});
