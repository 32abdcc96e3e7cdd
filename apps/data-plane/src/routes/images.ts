import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { admit } from "../admission/admit.js";
import { ClientGoneError, attemptAll, billUsage, clampedTimeout, clientSignal, sendJson } from "../pipeline/attempts.js";
import { writeGatewayHeaders } from "../http/headers.js";
import { fieldTexts } from "../guardrails/index.js";

const bad = (param: string, message: string) => new GatewayError("invalid_request", message, { param });

interface ImageRequest {
  model: string;
  prompt: string;
  n: number;
  size?: string;
  user?: string;
  quality?: "standard" | "hd";
  style?: "vivid" | "natural";
  response_format?: "url" | "b64_json";
}

/** Form bodies carry strings: accept "2" for n, reject anything that is not an integer. */
function toInt(v: unknown): number | undefined {
  if (typeof v === "number") return Number.isInteger(v) ? v : undefined;
  if (typeof v === "string" && /^\d+$/.test(v.trim())) return Number(v);
  return undefined;
}

function oneOf<T extends string>(b: Record<string, unknown>, field: string, allowed: readonly T[]): T | undefined {
  const v = b[field];
  if (v === undefined || v === "") return undefined;
  if (typeof v !== "string" || !(allowed as readonly string[]).includes(v)) throw bad(field, `'${field}' must be one of ${allowed.join(", ")}.`);
  return v as T;
}

export function validateImageBody(raw: unknown): ImageRequest {
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) throw new GatewayError("invalid_request", "Request body must be an object (JSON, urlencoded or multipart form).");
  const b = raw as Record<string, unknown>;
  if (typeof b.model !== "string" || b.model.length < 1 || b.model.length > 256) throw bad("model", "'model' is required: a public model id of 1 to 256 characters.");
  if (typeof b.prompt !== "string" || b.prompt.length < 1 || b.prompt.length > 4000) throw bad("prompt", "'prompt' is required: 1 to 4000 characters.");
  const n = b.n === undefined || b.n === "" ? 1 : toInt(b.n);
  if (n === undefined || n < 1 || n > 10) throw bad("n", "'n' must be an integer from 1 to 10.");
  if (b.size !== undefined && typeof b.size !== "string") throw bad("size", "'size' must be a string.");
  if (b.user !== undefined && typeof b.user !== "string") throw bad("user", "'user' must be a string.");
  const out: ImageRequest = { model: b.model, prompt: b.prompt, n };
  if (typeof b.size === "string" && b.size) out.size = b.size;
  if (typeof b.user === "string") out.user = b.user;
  const quality = oneOf(b, "quality", ["standard", "hd"] as const);
  const style = oneOf(b, "style", ["vivid", "natural"] as const);
  const format = oneOf(b, "response_format", ["url", "b64_json"] as const);
  if (quality) out.quality = quality;
  if (style) out.style = style;
  if (format) out.response_format = format;
  return out;
}

/** Price of one image: exact size and quality first, then wildcards; a size the model does not price is a 400. */
export function imagePrice(model: Model, size: string | undefined, quality: string | undefined): number {
  // Without a size the model's default applies, as the OpenAI API defaults it.
  const s = size ?? (model.default_image_size || "*");
  const q = quality ?? "standard";
  const p = model.image_prices;
  const hit =
    p.find((x) => x.size === s && x.quality === q) ??
    p.find((x) => x.size === s && x.quality === "*") ??
    p.find((x) => x.size === "*" && x.quality === q) ??
    p.find((x) => x.size === "*" && x.quality === "*");
  if (!hit) {
    const sizes = [...new Set(p.map((x) => x.size).filter((x) => x !== "*"))];
    if (sizes.length) throw bad("size", `'size' ${size ? `'${size}' ` : ""}is not offered by '${model.id}': one of ${sizes.join(", ")}.`);
    throw new GatewayError("model_unavailable", `The model '${model.id}' has no image price configured.`);
  }
  return hit.price_minor;
}

/** POST /v1/images/generations: JSON, urlencoded or multipart; billed per image by size and quality. */
export function images(ctx: DataPlaneContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = validateImageBody(req.body);
    let unitPrice = 0;
    const { model, planned, reservation } = await admit(ctx, res, {
      route: "images",
      capability: "images",
      modelId: body.model,
      promptTokensBound: () => 0,
      requestedOutput: 0,
      // Priced once, on the model admission resolved.
      maxCostMinor: (m) => (unitPrice = imagePrice(m, body.size, body.quality)) * body.n,
      guard: { stream: false, texts: () => fieldTexts(body as unknown as Record<string, unknown>, "prompt") },
    });
    // The size billed is the size asked for: the catalog's default goes upstream explicitly.
    const size = body.size ?? (model.default_image_size || undefined);
    const upstreamBody: Record<string, unknown> = { ...body, ...(size ? { size } : {}) };
    const client = clientSignal(res);
    try {
      const timeoutMs = clampedTimeout(ctx, req);
      const served = await attemptAll(ctx, res, planned, client, async ({ target, adapter }) => adapter.parse(await sendJson(ctx, adapter.build(upstreamBody, target), timeoutMs, adapter.mapError)));
      // Bill what was delivered: a provider that returns fewer images is charged for fewer.
      const delivered = Math.min(served.value.images, body.n);
      const attributes: Record<string, string> = { size: size ?? "default", quality: body.quality ?? "standard" };
      await billUsage(ctx, res, {
        model,
        route: "images",
        target: served.planned.target,
        reservation,
        usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false },
        costMinor: unitPrice * delivered,
        stream: false,
        status: client.aborted ? 499 : 200,
        lineItems: [{ item: "images", quantity: delivered, unit_price_minor: unitPrice, per: "image", attributes }],
      });
      if (client.aborted) return;
      writeGatewayHeaders(res);
      res.status(200).json(served.value.body);
    } catch (err) {
      if (!(err instanceof ClientGoneError)) throw err;
    } finally {
      reservation.settle(0);
    }
  };
}
