import { z } from "zod";
import { GatewayError, invalidParam } from "@gateway/errors";
import { modelId, parseBody } from "../http/body.js";
import type { Model } from "@gateway/proto";
import { imageUnitPrice } from "@gateway/pricing";
import type { DataPlaneContext } from "../context.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import { attemptAll, sendJson } from "../pipeline/attempts.js";
import { fieldTexts } from "../translate/texts.js";

/** Form bodies carry strings: "2" is n = 2; an empty field is absent. */
const formInt = (v: unknown): unknown => (v === "" ? undefined : typeof v === "string" && /^\d+$/.test(v.trim()) ? Number(v) : v);
const emptyIsAbsent = (v: unknown): unknown => (v === "" ? undefined : v);
const oneOf = <T extends [string, ...string[]]>(field: string, values: T) => z.preprocess(emptyIsAbsent, z.enum(values, { error: `'${field}' must be one of ${values.join(", ")}.` }).optional());

const SIZE = "'size' must be WIDTHxHEIGHT in pixels (e.g. 1024x1024) or auto.";

/** The image request the gateway takes (JSON, urlencoded or multipart fields). */
const ImageBody = z.object({
  model: modelId,
  prompt: z.string({ error: "'prompt' is required: 1 to 4000 characters." }).min(1, "'prompt' is required: 1 to 4000 characters.").max(4000, "'prompt' is required: 1 to 4000 characters."),
  n: z.preprocess(
    formInt,
    z
      .number({ error: "'n' must be an integer from 1 to 10." })
      .int("'n' must be an integer from 1 to 10.")
      .min(1, "'n' must be an integer from 1 to 10.")
      .max(10, "'n' must be an integer from 1 to 10.")
      .default(1),
  ),
  // Bounded here: the size is an attribute of the usage event, which NATS refuses past its payload limit.
  size: z.preprocess(
    emptyIsAbsent,
    z
      .string({ error: SIZE })
      .regex(/^(?:auto|[1-9]\d{1,4}x[1-9]\d{1,4})$/, SIZE)
      .optional(),
  ),
  user: z.string({ error: "'user' must be a string." }).optional(),
  quality: oneOf("quality", ["standard", "hd"]),
  style: oneOf("style", ["vivid", "natural"]),
  response_format: oneOf("response_format", ["url", "b64_json"]),
});

type ImageRequest = z.infer<typeof ImageBody>;

export function validateImageBody(raw: unknown): ImageRequest {
  const b = parseBody(ImageBody, raw, "an object (JSON, urlencoded or multipart form)");
  // Only the fields the reference API defines go upstream, without the absent ones.
  return Object.fromEntries(Object.entries(b).filter(([, v]) => v !== undefined)) as ImageRequest;
}

/** Price of one image: exact size and quality first, then wildcards; a size the model does not price is a 400. */
export function imagePrice(model: Model, size: string | undefined, quality: string | undefined): number {
  const price = imageUnitPrice(model.image_prices, model.default_image_size, size, quality);
  if (price === undefined) {
    const sizes = [...new Set(model.image_prices.map((x) => x.size).filter((x) => x !== "*"))];
    if (sizes.length) throw invalidParam("size", `'size' ${size ? `'${size}' ` : ""}is not offered by '${model.id}': one of ${sizes.join(", ")}.`);
    throw new GatewayError("model_unavailable", `The model '${model.id}' has no image price configured.`);
  }
  return price;
}

/** POST /v1/images/generations: JSON, urlencoded or multipart; billed per image by size and quality. */
export const imagesRoute: RouteSpec<ImageRequest, "images"> = {
  route: "images",
  capability: "images",
  parse: validateImageBody,
  admission: (body) => ({
    modelId: body.model,
    promptTokensBound: () => 0,
    requestedOutput: 0,
    // Priced on the model admission resolved.
    maxCostMinor: (m) => imagePrice(m, body.size, body.quality) * body.n,
    guard: { stream: false, texts: (b) => fieldTexts(b, "prompt") },
  }),
  async serve(ctx, call) {
    const { body, model, planned, reservation, timeoutMs } = call;
    // The hold is exactly n × the unit price (priced once, at admission).
    const unitPrice = reservation.amount / body.n;
    // The size billed is the size asked for: the catalog's default goes upstream explicitly.
    const size = body.size ?? (model.default_image_size || undefined);
    const upstreamBody: Record<string, unknown> = { ...body, ...(size ? { size } : {}) };
    const { planned: p, value } = await attemptAll(ctx, call, planned, async ({ target, adapter }) =>
      adapter.parse(await sendJson(ctx, target, adapter.build(upstreamBody, target), timeoutMs, adapter.mapError)),
    );
    // Bill what was delivered: a provider that returns fewer images is charged for fewer.
    const delivered = Math.min(value.images, body.n);
    const attributes: Record<string, string> = { size: size ?? "default", quality: body.quality ?? "standard" };
    return {
      kind: "answer",
      target: p.target,
      charge: {
        usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, estimated: false },
        costMinor: unitPrice * delivered,
        lineItems: [{ item: "images", quantity: delivered, unit_price_minor: unitPrice, per: "image", attributes }],
      },
      render: () => value.body,
    };
  },
};

export const images = (ctx: DataPlaneContext) => handle(ctx, imagesRoute);
