import { withUpstreamStatus } from "../upstream-client.js";
import { GatewayError } from "@gateway/errors";
import type { UpstreamTarget } from "../types.js";
import { trimBase, type VideoAdapter, type VideoHttp, type VideoJobRef, type VideoJobSpec } from "./types.js";

/** fal's scheme: `Authorization: Key <key>` (a provider may name another header in auth_header). */
function falAuth(target: UpstreamTarget): Record<string, string> {
  if (!target.apiKey) return {};
  return target.provider.auth_header ? { [target.provider.auth_header.toLowerCase()]: target.apiKey } : { authorization: `Key ${target.apiKey}` };
}

function falError(status: number, text: string, retryAfter: string | undefined): GatewayError {
  return withUpstreamStatus(falErrorOf(status, text, retryAfter), status);
}

function falErrorOf(status: number, text: string, retryAfter: string | undefined): GatewayError {
  let detail = text.slice(0, 300);
  try {
    const j = JSON.parse(text) as { detail?: unknown };
    if (typeof j.detail === "string") detail = j.detail;
    else if (j.detail !== undefined) detail = JSON.stringify(j.detail).slice(0, 300);
  } catch {
    // not JSON: keep the text
  }
  const retry = retryAfter !== undefined && /^\d+$/.test(retryAfter) ? { retry_after_s: Number(retryAfter) } : {};
  if (status === 429) return new GatewayError("model_unavailable", `The provider is rate limiting requests: ${detail}`, retry);
  if (status === 401 || status === 403) return new GatewayError("upstream_error", "The provider rejected the gateway's credentials for this model.");
  if (status >= 500) return new GatewayError("upstream_error", `The provider failed with status ${status}: ${detail}`, retry);
  if (status === 404) return new GatewayError("upstream_error", `The provider does not know the configured upstream model: ${detail}`);
  return new GatewayError("invalid_request", `The provider rejected the request: ${detail}`);
}

/**
 * Status and result URLs: the ones fal returned when they are on the provider's own origin (never
 * follow a URL elsewhere with our credentials), else built from the base URL. Status and result
 * paths use the app id without its sub-path (fal-ai/kling/i2v → fal-ai/kling).
 */
function urls(target: UpstreamTarget, job: VideoJobRef): { status: string; result: string } {
  const base = trimBase(target.provider.base_url);
  const origin = new URL(base).origin;
  const sameOrigin = (u: string | undefined) => {
    try {
      return u !== undefined && new URL(u).origin === origin ? u : undefined;
    } catch {
      return undefined;
    }
  };
  const app = job.upstreamModel.split("/").slice(0, 2).join("/");
  const fallback = `${base}/${app}/requests/${encodeURIComponent(job.upstreamJobId)}`;
  return { status: sameOrigin(job.upstreamState.status_url) ?? `${fallback}/status`, result: sameOrigin(job.upstreamState.response_url) ?? fallback };
}

/** fal's queue API (queue.fal.run): submit, poll the status, fetch the result once completed. */
export const falVideo: VideoAdapter = {
  async submit(http: VideoHttp, target: UpstreamTarget, spec: VideoJobSpec) {
    const body: Record<string, unknown> = { duration: String(spec.durationS), resolution: spec.resolution, aspect_ratio: spec.aspectRatio };
    if (spec.prompt) body.prompt = spec.prompt;
    if (spec.generateAudio) body.generate_audio = true;
    if (spec.imageUrl) body.image_url = spec.imageUrl;
    if (spec.imageUrls) body.image_urls = spec.imageUrls;
    if (spec.refVideoUrl) body.video_url = spec.refVideoUrl;
    if (spec.refAudioUrl) body.audio_url = spec.refAudioUrl;
    const r = await http.call({
      url: `${trimBase(target.provider.base_url)}/${target.deployment.upstream_model}`,
      headers: { "content-type": "application/json", ...falAuth(target) },
      body: JSON.stringify(body),
    });
    if (r.status !== 200 && r.status !== 201 && r.status !== 202) throw falError(r.status, r.text, r.retryAfter);
    const j = r.json as { request_id?: unknown; status_url?: unknown; response_url?: unknown };
    if (typeof j?.request_id !== "string" || !j.request_id) throw new GatewayError("upstream_error", "The provider returned an invalid queue response.");
    const state: Record<string, string> = {};
    if (typeof j.status_url === "string") state.status_url = j.status_url;
    if (typeof j.response_url === "string") state.response_url = j.response_url;
    return { status: "queued", progress: 0, upstreamJobId: j.request_id, upstreamState: state };
  },
  async status(http, target, job) {
    const u = urls(target, job);
    const r = await http.call({ method: "GET", url: u.status, headers: falAuth(target) });
    if (r.status === 404) return { status: "failed", progress: 0, error: { code: "provider_job_not_found", message: "The provider no longer knows this job." } };
    if (r.status !== 200 && r.status !== 202) throw falError(r.status, r.text, r.retryAfter);
    const s = r.json as { status?: unknown; error?: unknown; error_type?: unknown };
    switch (s?.status) {
      case "IN_QUEUE":
        return { status: "queued", progress: 0 };
      case "IN_PROGRESS":
        return { status: "in_progress", progress: 50 };
      case "COMPLETED":
        break;
      case "FAILED":
      case "CANCELED":
      case "CANCELLED":
        return { status: "failed", progress: 0, error: { code: "video_generation_failed", message: typeof s.error === "string" ? s.error : "The provider could not generate the video." } };
      default:
        throw new GatewayError("upstream_error", "The provider returned an invalid queue status.");
    }
    if (s.error) {
      return {
        status: "failed",
        progress: 0,
        error: { code: typeof s.error_type === "string" ? s.error_type : "video_generation_failed", message: typeof s.error === "string" ? s.error : "The provider could not generate the video." },
      };
    }
    const res = await http.call({ method: "GET", url: u.result, headers: falAuth(target) });
    if (res.status === 422 || res.status === 400) {
      const msg = falError(res.status, res.text, undefined).message.replace(/^The provider rejected the request: /, "");
      return { status: "failed", progress: 0, error: { code: "video_generation_failed", message: msg } };
    }
    if (res.status !== 200) throw falError(res.status, res.text, res.retryAfter);
    const out = res.json as { video?: { url?: unknown; content_type?: unknown }; duration?: unknown };
    if (typeof out?.video?.url !== "string") throw new GatewayError("upstream_error", "The provider returned a result without a video.");
    const duration = Number(out.duration);
    return {
      status: "completed",
      progress: 100,
      outputs: [{ type: "video", url: out.video.url, content_type: typeof out.video.content_type === "string" ? out.video.content_type : "video/mp4", gateway_content: false }],
      ...(Number.isFinite(duration) && duration > 0 ? { durationS: Math.ceil(duration) } : {}),
    };
  },
  content() {
    return undefined; // fal's result URLs are public
  },
  async cancel(http, target, job) {
    const u = urls(target, job);
    await http.call({ method: "PUT", url: `${u.result}/cancel`, headers: falAuth(target) }).catch(() => undefined);
  },
};
