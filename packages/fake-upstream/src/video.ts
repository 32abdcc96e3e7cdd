import { randomBytes, randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { flakyStatus, parseDirectives, type Directives } from "./directives.js";

/**
 * Fake asynchronous video APIs: OpenAI's videos API (/v1/videos…) and a fal-style queue
 * (/fal/{app}/…). A job's state follows from its age (no timers): queued for the first 20% of
 * `video_ms`, then in progress, then completed — or failed (`video_fail`), or never done
 * (`video_stuck`). A cancel stops a job that has not finished; one that finished stays finished (as
 * a provider bills a video it completed before the cancel came). Status calls can be slow: per job
 * (`video_status_ms`) or for every job ({@link videoStatusEndpoint}).
 */
interface Job {
  id: string;
  shape: "openai" | "fal";
  model: string;
  prompt: string;
  seconds: string;
  size: string;
  createdAt: number;
  ms: number;
  fail: boolean;
  stuck: boolean;
  /** When a cancel came (ms), if one did. */
  cancelledAt: number | undefined;
  /** Status calls about this job answer this late, ms. */
  statusMs: number;
}

/**
 * The status endpoint of every video job of this process, for a test: `delayMs` makes every status
 * call answer that late (the state as it was when the call came), like a provider whose status
 * endpoint is slow (the larger of it and a job's own `video_status_ms` applies); `answered` counts
 * the status calls answered so far.
 */
export const videoStatusEndpoint = { delayMs: 0, answered: 0 };

/** Answers a status call, as late as the job's and the process's settings say. */
async function statusLate(job: Job): Promise<void> {
  const ms = Math.max(job.statusMs, videoStatusEndpoint.delayMs);
  if (ms > 0) await new Promise((r) => setTimeout(r, ms));
  videoStatusEndpoint.answered++;
}

const MAX_JOBS = 10_000;
const jobs = new Map<string, Job>();
/** An MP4's first box: size, "ftyp", brand. Enough for a client to recognise the bytes. */
const MP4 = Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from("ftypisom"), Buffer.alloc(12), Buffer.from("fake video bytes")]);

function remember(job: Job): void {
  jobs.set(job.id, job);
  if (jobs.size > MAX_JOBS) jobs.delete(jobs.keys().next().value!);
}

function state(job: Job): { status: "queued" | "in_progress" | "completed" | "failed"; progress: number } {
  const age = Date.now() - job.createdAt;
  // Cancelled before it finished (a finished job stays as it was: the provider did the work).
  if (job.cancelledAt !== undefined && (job.stuck || job.cancelledAt - job.createdAt < job.ms)) return { status: "failed", progress: 0 };
  if (age < job.ms * 0.2) return { status: "queued", progress: 0 };
  if (job.stuck || age < job.ms) return { status: "in_progress", progress: Math.max(1, Math.min(99, Math.round((age / Math.max(1, job.ms)) * 100))) };
  return job.fail ? { status: "failed", progress: 0 } : { status: "completed", progress: 100 };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(body));
}

function directivesOf(model: string, body: Record<string, unknown>): Directives {
  // Media-only requests carry no prompt: look for markers in every string field.
  const text = Object.values(body)
    .map((v) => (typeof v === "string" ? v : Array.isArray(v) ? v.join(" ") : ""))
    .join(" ");
  return parseDirectives(model, text);
}

/** Fault injection on the create call (status/flaky/delay), as for the other routes. Returns true when it answered. */
async function injected(d: Directives, res: ServerResponse, errorBody: (status: number) => unknown): Promise<boolean> {
  if (d.delayMs) await new Promise((r) => setTimeout(r, d.delayMs));
  const failWith = flakyStatus(d);
  if (failWith !== undefined && failWith !== 200) {
    const headers: Record<string, string> = { "content-type": "application/json" };
    if (d.retryAfterS !== undefined) headers["retry-after"] = String(d.retryAfterS);
    res.writeHead(failWith, headers).end(JSON.stringify(errorBody(failWith)));
    return true;
  }
  return false;
}

function newJob(shape: Job["shape"], model: string, body: Record<string, unknown>, d: Directives): Job {
  return {
    id: shape === "openai" ? `video_${randomBytes(16).toString("hex")}` : randomUUID(),
    shape,
    model,
    prompt: typeof body.prompt === "string" ? body.prompt : "",
    seconds: String(body.seconds ?? body.duration ?? "4"),
    size: String(body.size ?? body.resolution ?? "720x1280"),
    createdAt: Date.now(),
    ms: d.videoMs ?? 300,
    fail: d.videoFail,
    stuck: d.videoStuck,
    cancelledAt: undefined,
    statusMs: d.videoStatusMs ?? 0,
  };
}

function openAIVideo(job: Job): Record<string, unknown> {
  const s = state(job);
  const completedAt = s.status === "completed" || s.status === "failed" ? Math.floor((job.createdAt + job.ms) / 1000) : null;
  return {
    id: job.id,
    object: "video",
    model: job.model,
    status: s.status,
    progress: s.progress,
    created_at: Math.floor(job.createdAt / 1000),
    completed_at: completedAt,
    expires_at: s.status === "completed" ? completedAt! + 3600 : null,
    prompt: job.prompt,
    seconds: job.seconds,
    size: job.size,
    remixed_from_video_id: null,
    error: s.status === "failed" ? { code: "video_generation_failed", message: "The fake provider failed this video." } : null,
  };
}

const oaiError = (status: number, message: string, param: string | null = null) => ({ error: { message, type: "invalid_request_error", param, code: status === 404 ? "not_found" : null } });

/** Handles the video routes; returns false when the path is not one of them. */
export async function handleVideo(req: IncomingMessage, res: ServerResponse, path: string, body: unknown, apiKey: string | undefined): Promise<boolean> {
  const method = req.method ?? "GET";
  const host = req.headers.host ?? "127.0.0.1";
  const b = body && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : {};

  const file = /^\/files\/video-([A-Za-z0-9_-]+)\.mp4$/.exec(path);
  if (file && method === "GET") {
    const job = jobs.get(file[1]!);
    if (!job || state(job).status !== "completed") send(res, 404, { detail: "File not found" });
    else res.writeHead(200, { "content-type": "video/mp4", "content-length": String(MP4.length) }).end(MP4);
    return true;
  }

  if (path === "/v1/videos" || path.startsWith("/v1/videos/")) {
    if (apiKey && req.headers.authorization !== `Bearer ${apiKey}`) {
      send(res, 401, { error: { message: "Incorrect API key provided", type: "invalid_request_error", code: "invalid_api_key" } });
      return true;
    }
    if (path === "/v1/videos" && method === "POST") {
      const model = String(b.model ?? "");
      const d = directivesOf(model, b);
      if (await injected(d, res, (s) => oaiError(s, `fake upstream status ${s}`))) return true;
      if (typeof b.prompt !== "string") {
        send(res, 400, oaiError(400, "Missing required parameter: 'prompt'.", "prompt"));
        return true;
      }
      const job = newJob("openai", model, b, d);
      remember(job);
      send(res, 200, openAIVideo(job));
      return true;
    }
    const m = /^\/v1\/videos\/([A-Za-z0-9_-]+)(\/content)?$/.exec(path);
    const job = m ? jobs.get(m[1]!) : undefined;
    if (!m || !job || job.shape !== "openai") {
      send(res, 404, oaiError(404, "Video not found"));
      return true;
    }
    if (method === "DELETE") {
      job.cancelledAt ??= Date.now();
      send(res, 200, { id: job.id, object: "video.deleted", deleted: true });
      return true;
    }
    if (m[2]) {
      if (state(job).status !== "completed") send(res, 404, oaiError(404, "Video content is not available"));
      else res.writeHead(200, { "content-type": "video/mp4", "content-length": String(MP4.length) }).end(MP4);
      return true;
    }
    const answer = openAIVideo(job);
    await statusLate(job);
    send(res, 200, answer);
    return true;
  }

  if (path.startsWith("/fal/")) {
    if (apiKey && req.headers.authorization !== `Key ${apiKey}`) {
      send(res, 401, { detail: "Invalid key: use Authorization: Key <key>" });
      return true;
    }
    const rest = path.slice("/fal/".length);
    const r = /^(.+?)\/requests\/([A-Za-z0-9-]+)(\/status|\/cancel)?$/.exec(rest);
    if (!r) {
      if (method !== "POST") {
        send(res, 405, { detail: "Method not allowed" });
        return true;
      }
      const d = directivesOf(rest, b);
      if (await injected(d, res, (s) => ({ detail: `fake upstream status ${s}` }))) return true;
      const job = newJob("fal", rest, b, d);
      remember(job);
      const app = rest.split("/").slice(0, 2).join("/");
      const base = `http://${host}/fal/${app}/requests/${job.id}`;
      send(res, 200, { request_id: job.id, response_url: base, status_url: `${base}/status`, cancel_url: `${base}/cancel`, queue_position: 0 });
      return true;
    }
    const job = jobs.get(r[2]!);
    if (!job || job.shape !== "fal") {
      send(res, 404, { detail: "Request not found" });
      return true;
    }
    const s = state(job);
    const base = `http://${host}/fal/${r[1]}/requests/${job.id}`;
    if (r[3] === "/cancel") {
      if (s.status === "completed" || s.status === "failed") send(res, 400, { status: "ALREADY_COMPLETED" });
      else {
        job.cancelledAt ??= Date.now();
        send(res, 202, { status: "CANCELLATION_REQUESTED" });
      }
      return true;
    }
    if (r[3] === "/status") {
      await statusLate(job);
      if (s.status === "queued") send(res, 200, { status: "IN_QUEUE", queue_position: 0, response_url: base });
      else if (s.status === "in_progress") send(res, 200, { status: "IN_PROGRESS", response_url: base });
      else if (s.status === "failed") send(res, 200, { status: "COMPLETED", error: "The fake provider failed this video.", error_type: "generation_failed", response_url: base });
      else send(res, 200, { status: "COMPLETED", response_url: base });
      return true;
    }
    if (s.status === "completed") send(res, 200, { video: { url: `http://${host}/files/video-${job.id}.mp4`, content_type: "video/mp4", file_size: MP4.length }, seed: 42 });
    else if (s.status === "failed") send(res, 422, { detail: "The fake provider failed this video." });
    else send(res, 400, { detail: "Request is still in progress" });
    return true;
  }
  return false;
}
