import { z } from "zod";
import { GatewayError, invalidParam } from "@gateway/errors";
import { modelId, parseBody } from "../http/body.js";
import type { Model } from "@gateway/proto";
import { videoPricePerSecond } from "@gateway/pricing";
import type { VideoJobSpec } from "../providers/video/types.js";

/** Fields callers try for uploads (OpenAI's input_reference, fal's *_file …): refused with a pointer to the URL fields. */
const UPLOAD_FIELDS = /^(image|images|video|audio|file|files|input_reference|inputReference|.*(File|_file|Base64|_base64|Data|_data))$/;
export const MEDIA_FIELDS = ["imageUrl", "refAudioUrl", "refVideoUrl"] as const;

const nullIsAbsent = (v: unknown): unknown => (v === null ? undefined : v);
const optional = <T extends z.ZodType>(t: T) => z.preprocess(nullIsAbsent, t.optional());
const mediaUrl = (f: string) =>
  optional(
    z
      .string({ error: `'${f}' must be an https:// URL string (file uploads are not accepted).` })
      .refine((v) => !/^data:/i.test(v), `'${f}' must be an https:// URL: inline data (file uploads) is not accepted.`),
  );

/** The body's fields (their fit to the model is checked at admission, against the catalog: planVideo). */
const VideoFields = z.object({
  model: modelId,
  prompt: optional(z.string({ error: "'prompt' must be a string of at most 8000 characters." }).max(8000, "'prompt' must be a string of at most 8000 characters.")),
  duration: optional(
    z
      .number({ error: "'duration' must be a positive integer number of seconds." })
      .int("'duration' must be a positive integer number of seconds.")
      .min(1, "'duration' must be a positive integer number of seconds."),
  ),
  resolution: optional(z.string({ error: "'resolution' must be a string." }).max(32, "'resolution' must be a string.")),
  aspectRatio: optional(
    z
      .string({ error: "'aspectRatio' must be a string." })
      .max(32, "'aspectRatio' must be a string.")
      .regex(/^[1-9][0-9]{0,2}:[1-9][0-9]{0,2}$/, "'aspectRatio' must be <w>:<h>, e.g. 16:9."),
  ),
  generateAudio: optional(z.boolean({ error: "'generateAudio' must be a boolean." })),
  imageUrl: mediaUrl("imageUrl"),
  refAudioUrl: mediaUrl("refAudioUrl"),
  refVideoUrl: mediaUrl("refVideoUrl"),
  imageUrls: optional(
    z
      .array(z.string(), { error: "'imageUrls' must be an array of https:// URL strings." })
      .refine((us) => !us.some((u) => /^data:/i.test(u)), "'imageUrls' must hold https:// URLs: inline data (file uploads) is not accepted."),
  ),
});

/**
 * The request body of POST /v1/video/generations, shape-checked; `plan`, once admission fitted it
 * to the resolved model (planVideo): what the job is made and held at.
 */
export type VideoRequestBody = z.infer<typeof VideoFields> & { plan?: VideoPlan };
const FIELDS = new Set(["model", "prompt", "duration", "resolution", "aspectRatio", "generateAudio", "imageUrl", "imageUrls", "refAudioUrl", "refVideoUrl"]);

const VideoBody = VideoFields.catchall(z.unknown()).superRefine((b, c) => {
  // Unknown fields are refused (uploads with a pointer to the URL fields): a typo must not be ignored.
  for (const k of Object.keys(b)) {
    if (FIELDS.has(k)) continue;
    const message = UPLOAD_FIELDS.test(k)
      ? `File uploads are not accepted: '${k}' is not a field. Pass media as https URLs in imageUrl, imageUrls, refAudioUrl or refVideoUrl.`
      : `Unknown field '${k}'. Fields: ${[...FIELDS].join(", ")}.`;
    c.addIssue({ code: "custom", path: [k], message });
    return;
  }
});

export function validateVideoBody(raw: unknown): VideoRequestBody {
  const b = parseBody(VideoBody, raw, "a JSON object");
  const out: VideoRequestBody = { model: b.model };
  for (const f of ["duration", "resolution", "aspectRatio", "generateAudio", "imageUrl", "imageUrls", "refAudioUrl", "refVideoUrl"] as const) {
    if (b[f] !== undefined) (out as unknown as Record<string, unknown>)[f] = b[f];
  }
  // A blank prompt is no prompt.
  if (typeof b.prompt === "string" && b.prompt.trim()) out.prompt = b.prompt;
  return out;
}

/** The request's values with the model's defaults, its price per second and the job's maximum cost. */
export interface VideoPlan {
  durationS: number;
  resolution: string;
  aspectRatio: string;
  generateAudio: boolean;
  pricePerSecond: number;
  maxCostMinor: number;
}

/**
 * What the provider is asked for: the body's prompt and media as admission left them (masked by the
 * input guardrails), at the values its plan resolved.
 */
export function videoJobSpec(body: VideoRequestBody, plan: VideoPlan): VideoJobSpec {
  const { durationS, resolution, aspectRatio, generateAudio } = plan;
  return {
    prompt: body.prompt,
    durationS,
    resolution,
    aspectRatio,
    generateAudio,
    imageUrl: body.imageUrl,
    imageUrls: body.imageUrls,
    refAudioUrl: body.refAudioUrl,
    refVideoUrl: body.refVideoUrl,
  };
}

const list = (v: readonly (string | number)[]) => v.join(", ");

/**
 * Fits a request to its model's video spec: kind-specific media (image-to-video needs imageUrl,
 * reference-to-video takes imageUrls, video edit needs refVideoUrl), a prompt where the kind needs
 * one, and duration / resolution / aspect ratio / audio among the model's values (defaults: the
 * first of each). Errors are 400s naming the field and the allowed values.
 */
export function planVideo(model: Model, body: VideoRequestBody): VideoPlan {
  const spec = model.video;
  if (!spec) throw new GatewayError("model_unavailable", `The model '${model.id}' has no video configuration on this gateway.`);
  const kind = spec.kind;
  const refuse = (field: string) => invalidParam(field, `'${field}' is not accepted by the ${kind} model '${model.id}'.`);
  switch (kind) {
    case "text-to-video":
      if (!body.prompt) throw invalidParam("prompt", `'prompt' is required by the text-to-video model '${model.id}'.`);
      if (body.imageUrl) throw refuse("imageUrl");
      if (body.imageUrls) throw refuse("imageUrls");
      if (body.refVideoUrl) throw refuse("refVideoUrl");
      break;
    case "image-to-video":
      if (body.imageUrls) throw invalidParam("imageUrls", `'imageUrls' is not accepted by the image-to-video model '${model.id}': send one image in 'imageUrl'.`);
      if (!body.imageUrl) throw invalidParam("imageUrl", `'imageUrl' is required by the image-to-video model '${model.id}' (the source image).`);
      if (body.refVideoUrl) throw refuse("refVideoUrl");
      break;
    case "reference-to-video": {
      if (body.imageUrl) throw invalidParam("imageUrl", `'imageUrl' is not accepted by the reference-to-video model '${model.id}': send references in 'imageUrls'.`);
      const n = body.imageUrls?.length ?? 0;
      if (n < 1 || n > spec.max_images) throw invalidParam("imageUrls", `'imageUrls' must hold 1 to ${spec.max_images} reference image URLs for '${model.id}' (got ${n}).`);
      if (body.refVideoUrl) throw refuse("refVideoUrl");
      break;
    }
    case "video-edit":
      if (!body.refVideoUrl) throw invalidParam("refVideoUrl", `'refVideoUrl' is required by the video-edit model '${model.id}' (the video to edit).`);
      if (!body.prompt) throw invalidParam("prompt", `'prompt' is required by the video-edit model '${model.id}' (the edit to make).`);
      if (body.imageUrls) throw refuse("imageUrls");
      break;
    default:
      throw new GatewayError("model_unavailable", `The model '${model.id}' has an unknown video kind.`);
  }
  if (body.refAudioUrl && !spec.audio) throw invalidParam("refAudioUrl", `'refAudioUrl' is not accepted by '${model.id}': the model has no audio control.`);
  const durationS = body.duration ?? spec.durations[0]!;
  if (!spec.durations.includes(durationS)) throw invalidParam("duration", `'duration' must be one of ${list(spec.durations)} (seconds) for '${model.id}'.`);
  const resolution = body.resolution ?? spec.resolutions[0]!;
  if (!spec.resolutions.includes(resolution)) throw invalidParam("resolution", `'resolution' must be one of ${list(spec.resolutions)} for '${model.id}'.`);
  const aspectRatio = body.aspectRatio ?? spec.aspect_ratios[0]!;
  if (!spec.aspect_ratios.includes(aspectRatio)) throw invalidParam("aspectRatio", `'aspectRatio' must be one of ${list(spec.aspect_ratios)} for '${model.id}'.`);
  const generateAudio = body.generateAudio ?? false;
  if (generateAudio && !spec.audio) throw invalidParam("generateAudio", `'generateAudio' must be false for '${model.id}': the model generates no audio.`);
  const pricePerSecond = videoPricePerSecond(spec.prices, resolution, generateAudio);
  if (pricePerSecond === undefined) throw new GatewayError("model_unavailable", `The model '${model.id}' has no price for ${resolution}.`);
  return { durationS, resolution, aspectRatio, generateAudio, pricePerSecond, maxCostMinor: pricePerSecond * durationS };
}
