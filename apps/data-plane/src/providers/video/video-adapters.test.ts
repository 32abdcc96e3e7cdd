import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { ProviderKind, UpstreamHttpRequest, UpstreamTarget } from "../types.js";
import { falVideo } from "./fal.js";
import { openAISize, openAIVideo } from "./openai.js";
import type { VideoHttp, VideoJobSpec } from "./types.js";

/** Recorded wire fixtures, in the shapes of OpenAI's videos API and fal's queue API references. */
const fixture = (name: string): unknown => JSON.parse(readFileSync(join(import.meta.dirname, "..", "fixtures", name), "utf8"));

/** Answers each call with the next scripted response and records the requests. */
function scripted(...answers: Array<[number, unknown]>): VideoHttp & { calls: UpstreamHttpRequest[] } {
  const calls: UpstreamHttpRequest[] = [];
  return {
    calls,
    async call(req) {
      calls.push(req);
      const [status, json] = answers.shift() ?? [500, { detail: "unscripted" }];
      return { status, json, text: JSON.stringify(json), retryAfter: undefined };
    },
  };
}

const target = (kind: ProviderKind, base: string, model: string): UpstreamTarget => ({
  provider: { code: kind, kind, base_url: base, credential_ref: "K", auth_header: "", max_connections: 0, http2: false },
  deployment: { provider: kind, upstream_model: model, priority: 0, weight: 1 },
  apiKey: "secret-key",
});
const spec: VideoJobSpec = {
  prompt: "A calico cat playing a piano on stage",
  durationS: 8,
  resolution: "720p",
  aspectRatio: "16:9",
  generateAudio: false,
  imageUrl: undefined,
  imageUrls: undefined,
  refAudioUrl: undefined,
  refVideoUrl: undefined,
};

describe("OpenAI videos API", () => {
  const t = target("openai", "https://api.openai.com/v1", "sora-2");

  it("maps resolution and aspect ratio to OpenAI's sizes", () => {
    expect(openAISize("720p", "16:9")).toBe("1280x720");
    expect(openAISize("720p", "9:16")).toBe("720x1280");
    expect(openAISize("1080p", "16:9")).toBe("1920x1080");
    expect(openAISize("1792x1024", "16:9")).toBe("1792x1024");
  });

  it("submits and reads the queued job", async () => {
    const http = scripted([200, fixture("openai-video-queued.json")]);
    const s = await openAIVideo.submit(http, t, spec);
    expect(s).toMatchObject({ status: "queued", progress: 0, upstreamJobId: "video_68d7512d07848190b3e45da0ecbebcde004da08e1e0678d5", durationS: 8 });
    expect(http.calls[0]).toMatchObject({ url: "https://api.openai.com/v1/videos", headers: { authorization: "Bearer secret-key" } });
    expect(JSON.parse(http.calls[0]!.body!)).toEqual({ model: "sora-2", prompt: spec.prompt, seconds: "8", size: "1280x720" });
  });

  it("reads completion (content served by the gateway) and failure with the provider's code", async () => {
    const ref = { upstreamJobId: "video_68d7", upstreamModel: "sora-2", upstreamState: {} };
    const done = await openAIVideo.status(scripted([200, fixture("openai-video-completed.json")]), t, ref);
    expect(done).toMatchObject({ status: "completed", progress: 100, outputs: [{ type: "video", gateway_content: true, content_type: "video/mp4" }] });
    expect(openAIVideo.content(t, ref)).toMatchObject({ method: "GET", url: "https://api.openai.com/v1/videos/video_68d7/content" });
    const failed = await openAIVideo.status(scripted([200, fixture("openai-video-failed.json")]), t, ref);
    expect(failed).toMatchObject({ status: "failed", error: { code: "moderation_blocked", message: "Your request was blocked by our moderation system." } });
  });
});

describe("fal queue API", () => {
  const t = target("fal", "https://queue.fal.run", "fal-ai/kling-video/v2/master/image-to-video");

  it("submits with fal's field names and Key auth, keeping the status and result URLs", async () => {
    const http = scripted([200, fixture("fal-queue-submit.json")]);
    const s = await falVideo.submit(http, t, { ...spec, prompt: undefined, imageUrl: "https://cdn.example/cat.png", durationS: 5 });
    expect(http.calls[0]).toMatchObject({ url: "https://queue.fal.run/fal-ai/kling-video/v2/master/image-to-video", headers: { authorization: "Key secret-key" } });
    expect(JSON.parse(http.calls[0]!.body!)).toEqual({ duration: "5", resolution: "720p", aspect_ratio: "16:9", image_url: "https://cdn.example/cat.png" });
    expect(s.upstreamJobId).toBe("764cabcf-b745-4b3e-ae38-1200304cf45b");
    expect(s.upstreamState?.status_url).toMatch(/\/requests\/764cabcf-b745-4b3e-ae38-1200304cf45b\/status$/);
  });

  it("polls the status, then fetches the result once COMPLETED", async () => {
    const submitted = fixture("fal-queue-submit.json") as { status_url: string; response_url: string };
    const ref = {
      upstreamJobId: "764cabcf-b745-4b3e-ae38-1200304cf45b",
      upstreamModel: t.deployment.upstream_model,
      upstreamState: { status_url: submitted.status_url, response_url: submitted.response_url },
    };
    expect(await falVideo.status(scripted([200, fixture("fal-queue-status-in-progress.json")]), t, ref)).toMatchObject({ status: "in_progress" });
    const http = scripted([200, fixture("fal-queue-status-completed.json")], [200, fixture("fal-queue-result.json")]);
    const done = await falVideo.status(http, t, ref);
    expect(done).toMatchObject({ status: "completed", outputs: [{ url: "https://v3.fal.media/files/penguin/Lq7AbyOT6l0ZS3XkFtAkg_output.mp4", gateway_content: false }] });
    expect(http.calls.map((c) => c.url)).toEqual([submitted.status_url, submitted.response_url]);
  });

  it("never follows status URLs to another origin with the credential", async () => {
    const ref = { upstreamJobId: "abc", upstreamModel: "fal-ai/kling-video/v2/master/image-to-video", upstreamState: { status_url: "https://evil.example/steal" } };
    const http = scripted([200, fixture("fal-queue-status-in-progress.json")]);
    await falVideo.status(http, t, ref);
    expect(http.calls[0]!.url).toBe("https://queue.fal.run/fal-ai/kling-video/requests/abc/status");
  });

  it("reads a COMPLETED status with an error as a failed job", async () => {
    const ref = { upstreamJobId: "abc", upstreamModel: "fal-ai/kling-video", upstreamState: {} };
    const r = await falVideo.status(scripted([200, { status: "COMPLETED", error: "NSFW content detected", error_type: "content_policy_violation" }]), t, ref);
    expect(r).toMatchObject({ status: "failed", error: { code: "content_policy_violation", message: "NSFW content detected" } });
  });
});
