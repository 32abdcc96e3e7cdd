import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import { ROUTES } from "./routes.js";

const count = z.number().int().nonnegative();
const route = z.string().superRefine((r, c) => {
  if (!(ROUTES as readonly string[]).includes(r)) c.addIssue({ code: "custom", message: `invalid route "${r}" (one of ${ROUTES.join(", ")})` });
});

const ProviderDoc = z.object({
  code: z.string().regex(/^[a-z0-9][a-z0-9_-]{0,63}$/, "hub code: lower-case letters, digits, - and _"),
  kind: z.enum(["openai", "anthropic", "openai-compatible", "fal"]),
  base_url: z.string().url(),
  credential_ref: z.string().regex(/^([A-Za-z_][A-Za-z0-9_.-]*)?$/, "a variable or secret file name").default(""),
  auth_header: z.string().regex(/^([A-Za-z0-9-]+)?$/, "an HTTP header name").default(""),
});

const DeploymentDoc = z.object({
  provider: z.string().min(1),
  upstream_model: z.string().min(1),
  priority: z.number().int().default(0),
  weight: z.number().int().positive().default(1),
});

const aspect = z.string().regex(/^[1-9][0-9]{0,2}:[1-9][0-9]{0,2}$/, "an aspect ratio <w>:<h>, e.g. 16:9");
const VideoDoc = z
  .object({
    kind: z.enum(["text-to-video", "image-to-video", "reference-to-video", "video-edit"]),
    durations: z.array(z.number().int().min(1).max(600)).min(1),
    resolutions: z.array(z.string().regex(/^[0-9]{3,4}p$|^[0-9]{3,4}x[0-9]{3,4}$/, "a resolution label like 720p or 1280x720")).min(1),
    aspect_ratios: z.array(aspect).min(1),
    audio: z.boolean().default(false),
    max_images: z.number().int().min(0).max(16).default(0),
    prices: z
      .array(z.object({ resolution: z.string().min(1).default("*"), price_minor_per_second: count, audio_price_minor_per_second: count.default(0) }))
      .min(1),
  })
  .superRefine((v, c) => {
    if (v.kind === "reference-to-video" && v.max_images < 1) c.addIssue({ code: "custom", path: ["max_images"], message: "a reference-to-video model takes at least one image" });
    for (const r of v.resolutions) {
      if (!v.prices.some((p) => p.resolution === r || p.resolution === "*")) c.addIssue({ code: "custom", path: ["prices"], message: `no price for resolution ${r}` });
    }
  });

const ModelDoc = z.object({
  id: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._:/-]{0,255}$/, "public model id: letters, digits and . _ : / -"),
  status: z.enum(["draft", "published"]).default("published"),
  routes: z.array(route).min(1),
  context_window: count,
  max_output_tokens: count,
  input_price_minor_per_mtok: count,
  output_price_minor_per_mtok: count,
  deployments: z.array(DeploymentDoc).default([]),
  image_prices: z
    .array(z.object({ size: z.string().min(1).default("*"), quality: z.enum(["standard", "hd", "*"]).default("*"), price_minor: count }))
    .default([]),
  video: VideoDoc.optional(),
}).superRefine((m, c) => {
  if (m.routes.includes("video") && !m.video) c.addIssue({ code: "custom", path: ["video"], message: "a model serving the video route needs a video spec" });
});

export const CatalogDocument = z.object({
  providers: z.array(ProviderDoc).default([]),
  models: z.array(ModelDoc).default([]),
});
export type CatalogDocument = z.infer<typeof CatalogDocument>;

/** Parses and validates; errors name the path of the bad field (`models[0].routes[1]: …`). */
export function parseCatalogDocument(json: string): CatalogDocument {
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new GatewayError("invalid_request", "catalog document is not valid JSON");
  }
  const r = CatalogDocument.safeParse(raw);
  if (!r.success) {
    const msgs = r.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
    throw new GatewayError("invalid_request", `invalid catalog document: ${msgs.join("; ")}`);
  }
  return r.data;
}

function formatPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const p of path) out += typeof p === "number" ? `[${p}]` : out ? `.${String(p)}` : String(p);
  return out || "(document)";
}
