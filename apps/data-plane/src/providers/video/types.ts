import type { UpstreamHttpRequest, UpstreamTarget } from "../types.js";

/** What the gateway asks a video provider for, after validation against the model's spec. */
export interface VideoJobSpec {
  prompt: string | undefined;
  durationS: number;
  resolution: string;
  aspectRatio: string;
  generateAudio: boolean;
  imageUrl: string | undefined;
  imageUrls: string[] | undefined;
  refAudioUrl: string | undefined;
  refVideoUrl: string | undefined;
}

export type VideoState = "queued" | "in_progress" | "completed" | "failed";

export interface VideoOutput {
  type: "video";
  /** The provider's URL, or empty when the gateway serves the bytes (gateway_content). */
  url: string;
  content_type: string;
  /** True when fetching needs the provider's credentials: the gateway serves it on /content. */
  gateway_content: boolean;
}

/** A provider's answer to a create or status call, normalized. */
export interface VideoStatus {
  status: VideoState;
  progress: number;
  /** Provider job id (create) and adapter state kept with the job (status/result URLs). */
  upstreamJobId?: string;
  upstreamState?: Record<string, string>;
  outputs?: VideoOutput[];
  error?: { code: string; message: string };
  /** Seconds of video the provider reports having produced, when it does. */
  durationS?: number;
}

/** A stored job as an adapter needs it. */
export interface VideoJobRef {
  upstreamJobId: string;
  upstreamModel: string;
  upstreamState: Record<string, string>;
}

/** The HTTP the adapters need; deadlines and retries are the caller's. */
export interface VideoHttp {
  call(req: UpstreamHttpRequest): Promise<{ status: number; json: unknown; text: string; retryAfter: string | undefined }>;
}

/** One video provider API shape. */
export interface VideoAdapter {
  submit(http: VideoHttp, target: UpstreamTarget, spec: VideoJobSpec): Promise<VideoStatus>;
  status(http: VideoHttp, target: UpstreamTarget, job: VideoJobRef): Promise<VideoStatus>;
  /** Where the result bytes are when they need the provider's credentials. */
  content(target: UpstreamTarget, job: VideoJobRef): UpstreamHttpRequest | undefined;
  /** Best effort. */
  cancel(http: VideoHttp, target: UpstreamTarget, job: VideoJobRef): Promise<void>;
}

export const trimBase = (u: string): string => u.replace(/\/+$/, "");
