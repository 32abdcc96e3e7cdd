import { GatewayError } from "@gateway/errors";
import { amountExpected, formatPrice, parseCredits, type MoneyFormat } from "./shared/money.js";
import { PRICE_FIELDS, fieldLabel } from "./shared/price-fields.js";
import { wholeOf } from "./params.js";

/** A model of the catalog document, as far as its prices go (the document's other fields are kept as they are). */
export interface ModelDoc {
  id: string;
  routes: string[];
  image_prices?: Array<{ size: string; quality: string; price_minor: number }>;
  video?: { prices: Array<{ resolution: string; price_minor_per_second: number; audio_price_minor_per_second: number }> } & Record<string, unknown>;
  long_context_threshold_tokens?: number;
  [field: string]: unknown;
}

/** What the operator's price form sends: each field as typed, in credits ("" for a field left unset; a field not sent keeps its price). */
export interface PriceForm {
  prices: Record<string, string>;
  long_context_threshold_tokens: string;
  image_prices: string[];
  video_prices: Array<{ price: string; audio_price: string }>;
}

/** The model's price fields for the form: minor units, null where the catalog sets none. */
export const priceFieldsOf = (m: ModelDoc) => ({
  id: m.id,
  routes: m.routes,
  prices: Object.fromEntries(PRICE_FIELDS.map((p) => [p.field, typeof m[p.field] === "number" ? (m[p.field] as number) : null])),
  long_context_threshold_tokens: m.long_context_threshold_tokens ?? 0,
  image_prices: m.image_prices ?? [],
  video_prices: m.video?.prices ?? [],
});

/** An image price's row as people read it: "1024x1024, hd", "any size, any quality". */
export const imageKind = (r: { size: string; quality: string }) => `${r.size === "*" ? "any size" : r.size}, ${r.quality === "*" ? "any quality" : r.quality}`;
/** A video price's resolution as people read it. */
export const videoKind = (r: { resolution: string }) => (r.resolution === "*" ? "any resolution" : r.resolution);

const credits = (text: string | undefined, label: string, money: MoneyFormat): number => {
  const minor = parseCredits(text ?? "");
  if (minor === null) throw new GatewayError("invalid_request", `${amountExpected(label, money)}.`);
  return minor;
};

/**
 * The model with the form's prices: every field read in credits into minor units (a message naming
 * the field as the form does when one is not an amount; an empty optional field is unset, an empty
 * required one refused). The rows of image and video prices keep their sizes and resolutions.
 */
export function withPrices(m: ModelDoc, form: PriceForm, money: MoneyFormat): ModelDoc {
  const next: ModelDoc = { ...m };
  for (const p of PRICE_FIELDS) {
    if (!Object.hasOwn(form.prices, p.field)) continue;
    const typed = (form.prices[p.field] ?? "").trim();
    if (typed === "" && p.unset === undefined) throw new GatewayError("invalid_request", `${fieldLabel(p.field)} is required.`);
    next[p.field] = typed === "" ? null : credits(typed, fieldLabel(p.field), money);
  }
  if (form.long_context_threshold_tokens !== "") next.long_context_threshold_tokens = wholeOf(form.long_context_threshold_tokens, "The long-context threshold", " (0: none)");
  next.image_prices = (m.image_prices ?? []).map((row, i) => ({ ...row, price_minor: credits(form.image_prices[i], `The price of an image (${imageKind(row)})`, money) }));
  if (m.video) {
    const prices = m.video.prices.map((row, i) => ({
      ...row,
      price_minor_per_second: credits(form.video_prices[i]?.price, `The price per second of video (${videoKind(row)})`, money),
      audio_price_minor_per_second: credits(form.video_prices[i]?.audio_price || "0", `The audio price per second of video (${videoKind(row)})`, money),
    }));
    next.video = { ...m.video, prices };
  }
  return next;
}

/** A field's value as the review shows it: prices in the operator's money format, rows of prices one by one. */
function valueText(field: string, v: unknown, money: MoneyFormat): string {
  const price = PRICE_FIELDS.find((p) => p.field === field);
  if (price) return typeof v === "number" ? formatPrice(v, money) : `unset (${price.unset ?? "none"})`;
  if (field === "image_prices" && Array.isArray(v)) return (v as ModelDoc["image_prices"] & object).map((r) => `${imageKind(r)}: ${formatPrice(r.price_minor, money)}`).join("; ") || "none";
  if (field === "video" && v && typeof v === "object" && Array.isArray((v as ModelDoc["video"] & object).prices)) {
    const rows = (v as ModelDoc["video"] & object).prices.map(
      (r) => `${r.resolution}: ${formatPrice(r.price_minor_per_second, money)}/s (+${formatPrice(r.audio_price_minor_per_second, money)}/s audio)`,
    );
    return `prices ${rows.join("; ")}`;
  }
  return v === null || v === undefined ? "none" : JSON.stringify(v);
}

/** A catalog difference as the review shows it: each changed field named as people read it, before and after in credits. */
export function describeChanges(changes: Array<{ kind: string; id: string; change: string; fields_json: string }>, money: MoneyFormat) {
  return changes.map(({ fields_json, ...c }) => ({
    ...c,
    fields: (JSON.parse(fields_json) as Array<{ field: string; before: unknown; after: unknown }>).map((f) => ({
      field: f.field,
      label: fieldLabel(f.field),
      before: valueText(f.field, f.before, money),
      after: valueText(f.field, f.after, money),
    })),
  }));
}
