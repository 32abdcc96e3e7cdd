import { withUpstreamStatus } from "../upstream-client.js";
import { GatewayError } from "@gateway/errors";
import { mapOpenAIError, openAIAuthHeaders } from "../openai-compatible/chat.js";
import type { UpstreamTarget } from "../types.js";
import { trimBase, type VideoAdapter, type VideoHttp, type VideoJobRef, type VideoJobSpec, type VideoStatus } from "./types.js";

/**
 * OpenAI's size for a resolution label and aspect ratio: the label's number is the short side
 * (720p at 16:9 → 1280x720, at 9:16 → 720x1280); a `WxH` label is sent as is.
 */
export function openAISize(resolution: string, aspectRatio: string): string {
  if (/^\d+x\d+$/.test(resolution)) return resolution;
  const short = Number.parseInt(resolution, 10);
  const [w, h] = aspectRatio.split(":").map(Number) as [number, number];
  const long = Math.round((short * Math.max(w, h)) / Math.min(w, h) / 16) * 16;
  return w >= h ? `${long}x${short}` : `${short}x${long}`;
}

interface OpenAIVideo {
  id?: unknown;
  status?: unknown;
  progress?: unknown;
  seconds?: unknown;
  error?: { code?: unknown; message?: unknown } | null;
}

function toStatus(v: OpenAIVideo): VideoStatus {
  if (typeof v?.id !== "string" || typeof v.status !== "string") throw new GatewayError("upstream_error", "The provider returned an invalid video job.");
  const progress = typeof v.progress === "number" ? Math.max(0, Math.min(100, Math.round(v.progress))) : 0;
  const seconds = Number(v.seconds);
  const base: VideoStatus = { status: "queued", progress, upstreamJobId: v.id, ...(Number.isFinite(seconds) && seconds > 0 ? { durationS: Math.ceil(seconds) } : {}) };
  switch (v.status) {
    case "queued":
      return base;
    case "in_progress":
      return { ...base, status: "in_progress" };
    case "completed":
      // The content URL needs the API key: the gateway serves it on its own route.
      return { ...base, status: "completed", progress: 100, outputs: [{ type: "video", url: "", content_type: "video/mp4", gateway_content: true }] };
    case "failed":
      return {
        ...base,
        status: "failed",
        error: {
          code: typeof v.error?.code === "string" ? v.error.code : "video_generation_failed",
          message: typeof v.error?.message === "string" ? v.error.message : "The provider could not generate the video.",
        },
      };
    default:
      throw new GatewayError("upstream_error", `The provider returned an unknown video status '${String(v.status).slice(0, 32)}'.`);
  }
}

/** OpenAI's videos API: POST /videos, GET /videos/{id}, GET /videos/{id}/content. */
export const openAIVideo: VideoAdapter = {
  async submit(http: VideoHttp, target: UpstreamTarget, spec: VideoJobSpec) {
    const body: Record<string, unknown> = {
      model: target.deployment.upstream_model,
      prompt: spec.prompt ?? "",
      seconds: String(spec.durationS),
      size: openAISize(spec.resolution, spec.aspectRatio),
    };
    if (spec.imageUrl) body.input_reference = { image_url: spec.imageUrl };
    const r = await http.call({
      url: `${trimBase(target.provider.base_url)}/videos`,
      headers: { "content-type": "application/json", ...openAIAuthHeaders(target) },
      body: JSON.stringify(body),
    });
    if (r.status !== 200) throw withUpstreamStatus(mapOpenAIError(r.status, r.text, r.retryAfter), r.status);
    return toStatus(r.json as OpenAIVideo);
  },
  async status(http, target, job: VideoJobRef) {
    const r = await http.call({ method: "GET", url: `${trimBase(target.provider.base_url)}/videos/${encodeURIComponent(job.upstreamJobId)}`, headers: openAIAuthHeaders(target) });
    if (r.status === 404) return { status: "failed", progress: 0, error: { code: "provider_job_not_found", message: "The provider no longer knows this job." } };
    if (r.status !== 200) throw withUpstreamStatus(mapOpenAIError(r.status, r.text, r.retryAfter), r.status);
    return toStatus(r.json as OpenAIVideo);
  },
  content(target, job) {
    return { method: "GET", url: `${trimBase(target.provider.base_url)}/videos/${encodeURIComponent(job.upstreamJobId)}/content`, headers: openAIAuthHeaders(target) };
  },
  async cancel(http, target, job) {
    await http.call({ method: "DELETE", url: `${trimBase(target.provider.base_url)}/videos/${encodeURIComponent(job.upstreamJobId)}`, headers: openAIAuthHeaders(target) }).catch(() => undefined);
  },
};
