import { GatewayError } from "@gateway/errors";
import { bodyOf } from "../params.js";
import { signed, type Routes } from "../middleware.js";
import { describeChanges, priceFieldsOf, withPrices, type ModelDoc, type PriceForm } from "../catalog-prices.js";

const texts = (v: unknown) => (Array.isArray(v) ? v.map((x) => (typeof x === "string" || typeof x === "number" ? String(x) : "")) : []);

/** The price form's body: each field's text as typed. */
const priceForm = (b: Record<string, unknown>): PriceForm => ({
  prices: Object.fromEntries(Object.entries((b.prices ?? {}) as Record<string, unknown>).map(([k, v]) => [k, typeof v === "string" || typeof v === "number" ? String(v) : ""])),
  long_context_threshold_tokens: String(b.long_context_threshold_tokens ?? ""),
  image_prices: texts(b.image_prices),
  video_prices: (Array.isArray(b.video_prices) ? b.video_prices : []).map((r) => ({
    price: String((r as { price?: unknown })?.price ?? ""),
    audio_price: String((r as { audio_price?: unknown })?.audio_price ?? ""),
  })),
});

/**
 * The operator's catalog (docs/console.md, "Catalog"): the document and each model's prices for the
 * form; the difference a document would make — from the whole document, or from one model's price
 * form in credits — field by field in credits; applying exactly the reviewed document onto the
 * version reviewed (a change in between is a 409). The control-plane checks the operator and audits.
 */
export function operatorCatalogRoutes({ ctx, read, write }: Routes): void {
  const { control } = ctx;
  read(
    "/api/operator/catalog",
    async (_req, res) => {
      const c = await control.ConsoleGetCatalog({ token: signed(res).token });
      const models = (JSON.parse(c.document_json) as { models?: ModelDoc[] }).models ?? [];
      return { version: c.version, document: c.document_json, models: models.map(priceFieldsOf) };
    },
    "operator",
  );
  const review = (token: string, document: string) => control.ConsoleApplyCatalog({ token, document_json: document, base_version: 0, dry_run: true });
  write(
    "/api/operator/catalog/diff",
    async (req, res) => {
      const r = await review(signed(res).token, String(bodyOf(req).document ?? ""));
      return { version: r.version, changes: describeChanges(r.changes, signed(res).money) };
    },
    { limit: "1mb", scope: "operator" },
  );
  // One model's prices from the form: the document that changes them, and its difference to review.
  write(
    "/api/operator/catalog/model-prices",
    async (req, res) => {
      const b = bodyOf(req);
      const c = await control.ConsoleGetCatalog({ token: signed(res).token });
      const model = ((JSON.parse(c.document_json) as { models?: ModelDoc[] }).models ?? []).find((m) => m.id === b.model);
      if (!model) throw new GatewayError("not_found", `The catalog has no model '${String(b.model).slice(0, 100)}'.`);
      const document = JSON.stringify({ models: [withPrices(model, priceForm(b), signed(res).money)] }, null, 2);
      const r = await review(signed(res).token, document);
      return { version: r.version, document, changes: describeChanges(r.changes, signed(res).money) };
    },
    { limit: "64kb", scope: "operator" },
  );
  write(
    "/api/operator/catalog",
    async (req, res) => {
      const b = bodyOf(req);
      if (typeof b.base_version !== "number") throw new GatewayError("invalid_request", "base_version (the version the difference was reviewed against) is required");
      const r = await control.ConsoleApplyCatalog({ token: signed(res).token, document_json: String(b.document ?? ""), base_version: b.base_version, dry_run: false });
      return { version: r.version, changes: describeChanges(r.changes, signed(res).money) };
    },
    { limit: "1mb", scope: "operator" },
  );
}
