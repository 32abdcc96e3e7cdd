/**
 * The models the organization may use (/models), each with every kind of price it pays — per
 * million tokens by kind, long context, audio, per image by size and quality, per second of video by
 * resolution, per web search — and the MCP tools with their price per call, in the operator's money format.
 */
import { PRICE_FIELDS } from "../../shared/price-fields.js";
import { getJson } from "../api.js";
import { $, count, el, fillTable, pairs, row } from "../dom.js";
import { price, startPage } from "../shell.js";

interface Model {
  id: string;
  routes: string[];
  context_window: number;
  max_output_tokens: number;
  long_context_threshold_tokens: number;
  image_prices: Array<{ size: string; quality: string; price_minor: number }>;
  video_prices: Array<{ resolution: string; price_minor_per_second: number; audio_price_minor_per_second: number }>;
  [field: string]: unknown;
}

/** Every price the model has, as [kind, price, per]: a price of 0 the model does not offer is left out. */
function pricesOf(m: Model): string[][] {
  const rows: string[][] = [];
  for (const f of PRICE_FIELDS) {
    const v = m[f.field];
    if (typeof v !== "number" || v === 0) continue;
    if (f.field.startsWith("long_context") && !m.long_context_threshold_tokens) continue;
    const label = f.field.startsWith("long_context") ? `${f.label} (prompts above ${count(m.long_context_threshold_tokens)} tokens)` : f.label;
    rows.push([label, price(v), `per ${f.per}`]);
  }
  for (const p of m.image_prices) rows.push([`Image, ${p.size === "*" ? "any size" : p.size}${p.quality === "*" ? "" : `, ${p.quality}`}`, price(p.price_minor), "per image"]);
  for (const p of m.video_prices) {
    const res = p.resolution === "*" ? "any resolution" : p.resolution;
    rows.push([`Video, ${res}`, price(p.price_minor_per_second), "per second"]);
    if (p.audio_price_minor_per_second) rows.push([`Video audio, ${res}`, price(p.audio_price_minor_per_second), "per second, added"]);
  }
  return rows;
}

function card(m: Model, n: number): HTMLElement {
  const article = el("article", "", { class: "card model", "aria-labelledby": `model-${n}` });
  const facts = el("dl", "", { class: "facts" });
  const limits: Array<[string, string]> = [
    ["Context", m.context_window ? `${count(m.context_window)} tokens` : ""],
    ["Max output", m.max_output_tokens ? `${count(m.max_output_tokens)} tokens` : ""],
  ];
  pairs(facts, [["Routes", m.routes.join(", ")], ...limits.filter(([, v]) => v)]);
  const table = el("table");
  const head = el("thead");
  head.append(row([]));
  head.firstElementChild!.replaceChildren(...["Price", "Amount", "Per"].map((h) => el("th", h, { scope: "col" })));
  const body = el("tbody");
  table.append(head, body);
  fillTable(body, pricesOf(m).map(row), "No price: this model bills nothing.");
  article.append(el("h2", m.id, { id: `model-${n}` }), facts, table);
  return article;
}

void startPage(async () => {
  const { data, tools } = await getJson<{ data: Model[]; tools: Array<{ server: string; tool: string; price_minor: number }> }>("/api/models");
  $("models").replaceChildren(...data.map(card));
  if (data.length === 0) $("models").append(el("p", "The organization may use no model yet: ask the gateway's operator."));
  fillTable(
    $("tools"),
    tools.map((t) => row([t.server, t.tool, t.price_minor ? price(t.price_minor) : "not billed"])),
    "The organization may call no MCP tool.",
  );
});
