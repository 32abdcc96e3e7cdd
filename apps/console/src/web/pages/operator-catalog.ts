/**
 * The operator's catalog (/operator/catalog): a model's prices in a form, one field per price in the
 * operator's money unit (an empty field is unset: the catalog's fallback is said beside it), or the
 * whole document as JSON. Either way **Review changes** shows each field the change makes, before and
 * after in credits, and **Apply reviewed changes** applies exactly the reviewed document onto the
 * version it was reviewed against (a change in between is refused: review again); audited.
 */
import { exactCredits } from "../../shared/money.js";
import { PRICE_FIELDS, fieldLabel } from "../../shared/price-fields.js";
import { getJson, post } from "../api.js";
import { $, el, fillTable, row, fieldValue } from "../dom.js";
import { onClick, onSubmit } from "../feedback.js";
import { moneyFormatOf, startPage } from "../shell.js";

interface ModelPrices {
  id: string;
  routes: string[];
  prices: Record<string, number | null>;
  long_context_threshold_tokens: number;
  image_prices: Array<{ size: string; quality: string; price_minor: number }>;
  video_prices: Array<{ resolution: string; price_minor_per_second: number; audio_price_minor_per_second: number }>;
}
interface Change {
  kind: string;
  id: string;
  change: string;
  fields: Array<{ field: string; label: string; before: string; after: string }>;
}

let models: ModelPrices[] = [];
/** The document reviewed and the version it was reviewed against: what Apply applies. */
let reviewed: { document: string; version: number } | null = null;

/** A labelled input of the price form. */
function input(id: string, label: string, value: string, hint: string): HTMLElement {
  const field = el("span", "", { class: "field" });
  const box = el("input", "", { id, name: id, inputmode: "decimal", size: "10" });
  box.value = value;
  field.append(el("label", label, { for: id }), box);
  if (hint) {
    box.setAttribute("aria-describedby", `${id}-hint`);
    field.append(el("small", hint, { id: `${id}-hint`, class: "muted" }));
  }
  return field;
}

/** The form's fields for the model chosen, filled with its prices. */
function showModel(): void {
  const m = models.find((x) => x.id === fieldValue("price-model"));
  if (!m) return;
  const unit = moneyFormatOf().unit;
  // Per-token prices for a model that bills tokens; an image or video model has its own rows only.
  const tokens = m.routes.some((r) => r !== "images" && r !== "video");
  const fields: HTMLElement[] = (tokens ? PRICE_FIELDS : []).map((p) =>
    input(
      `price-${p.field}`,
      `${fieldLabel(p.field)} (${unit})`,
      m.prices[p.field] === null || m.prices[p.field] === undefined ? "" : exactCredits(m.prices[p.field]!),
      p.unset ? `empty: ${p.unset}` : "",
    ),
  );
  if (tokens) fields.push(input("price-long-context", "Long-context threshold (tokens)", String(m.long_context_threshold_tokens), "0: no long-context prices"));
  const any = (v: string, what: string) => (v === "*" ? `any ${what}` : v);
  m.image_prices.forEach((p, i) => fields.push(input(`price-image-${i}`, `Image, ${any(p.size, "size")}, ${any(p.quality, "quality")} (${unit} per image)`, exactCredits(p.price_minor), "")));
  m.video_prices.forEach((p, i) => {
    const res = any(p.resolution, "resolution");
    fields.push(input(`price-video-${i}`, `Video, ${res} (${unit} per second)`, exactCredits(p.price_minor_per_second), ""));
    fields.push(input(`price-video-audio-${i}`, `Video, ${res}, with audio (${unit} per second, added)`, exactCredits(p.audio_price_minor_per_second), ""));
  });
  $("price-fields").replaceChildren(...fields);
}

/** The form as typed, for the server to read in credits. */
function priceForm(m: ModelPrices) {
  return {
    model: m.id,
    // Only the fields shown: a price the form leaves out stays as it is.
    prices: Object.fromEntries(PRICE_FIELDS.filter((p) => document.getElementById(`price-${p.field}`)).map((p) => [p.field, fieldValue(`price-${p.field}`)])),
    long_context_threshold_tokens: document.getElementById("price-long-context") ? fieldValue("price-long-context") : "",
    image_prices: m.image_prices.map((_p, i) => fieldValue(`price-image-${i}`)),
    video_prices: m.video_prices.map((_p, i) => ({ price: fieldValue(`price-video-${i}`), audio_price: fieldValue(`price-video-audio-${i}`) })),
  };
}

/** The difference to review; Apply is enabled only for a document that changes something. */
function showChanges(changes: Change[], document: string, version: number): string {
  const rows: HTMLTableRowElement[] = [];
  for (const c of changes) {
    if (c.change === "added") rows.push(row([c.kind, c.id, "added", "", "", ""]));
    for (const f of c.fields) rows.push(row([c.kind, c.id, "changed", f.label, f.before, f.after]));
  }
  fillTable($("catalog-diff"), rows, "This changes nothing.");
  reviewed = changes.length ? { document, version } : null;
  $<HTMLButtonElement>("catalog-apply").disabled = reviewed === null;
  return changes.length ? `${changes.length} ${changes.length === 1 ? "change" : "changes"} to review below.` : "This changes nothing.";
}

/** Editing again needs another review before anything can be applied. */
const unreview = () => {
  reviewed = null;
  $<HTMLButtonElement>("catalog-apply").disabled = true;
};

async function loadCatalog(): Promise<void> {
  const c = await getJson<{ version: number; document: string; models: ModelPrices[] }>("/api/operator/catalog");
  models = c.models;
  $("catalog-version").textContent = `Version ${c.version}.`;
  $<HTMLTextAreaElement>("catalog-doc").value = c.document;
  const picked = fieldValue("price-model");
  $("price-model").replaceChildren(...models.map((m) => el("option", m.id, { value: m.id })));
  if (models.some((m) => m.id === picked)) $<HTMLSelectElement>("price-model").value = picked;
  showModel();
}

void startPage(async () => {
  $("price-model").addEventListener("change", () => {
    unreview();
    showModel();
  });
  for (const id of ["prices", "catalog"]) $(id).addEventListener("input", unreview);
  onSubmit(
    $<HTMLFormElement>("prices"),
    async () => {
      const m = models.find((x) => x.id === fieldValue("price-model"))!;
      const r = await post<{ version: number; document: string; changes: Change[] }>("/api/operator/catalog/model-prices", priceForm(m));
      return showChanges(r.changes, r.document, r.version);
    },
    { keep: true },
  );
  onSubmit(
    $<HTMLFormElement>("catalog"),
    async () => {
      const document = fieldValue("catalog-doc");
      const r = await post<{ version: number; changes: Change[] }>("/api/operator/catalog/diff", { document });
      return showChanges(r.changes, document, r.version);
    },
    { keep: true },
  );
  onClick(
    $<HTMLButtonElement>("catalog-apply"),
    async () => {
      if (!reviewed) throw new Error("Review the changes first.");
      const r = await post<{ version: number }>("/api/operator/catalog", { document: reviewed.document, base_version: reviewed.version });
      await loadCatalog();
      return `Applied: the catalog is at version ${r.version}.`;
    },
    { after: unreview },
  );
  await loadCatalog();
});
