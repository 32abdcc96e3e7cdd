/**
 * Fault injection for the fake upstream. Directives come from the upstream model name
 * (`fake-chat+delay=200+status=503`) and from `[[fake:cut=3,nousage]]` (or `[[fake:cached=64,reasoning=20]]`) markers in the prompt, so
 * both the catalog (per deployment) and a test (per request) can choose behaviour.
 */
export interface Directives {
  /** Milliseconds to wait before answering. */
  delayMs: number;
  /** Milliseconds between stream chunks. */
  chunkDelayMs: number;
  /** Answer with this HTTP status and an error body. */
  status?: number;
  /** Answer 200 with a body that is not valid JSON (or an invalid SSE event). */
  malformed: boolean;
  /** Close the stream after this many content chunks, without finish or [DONE]. */
  cutAfter?: number;
  /** Leave usage out of the response / stream. */
  noUsage: boolean;
  /** End a chat stream after its finish (and usage) chunk without `data: [DONE]`, as some OpenAI-compatible servers do. */
  noDone: boolean;
  /** Fixed reply text instead of the echo. */
  reply?: string;
  /** Retry-After seconds to send with an error status. */
  retryAfterS?: number;
  /** `flaky=tag:n`: the first n requests carrying this tag fail (with `status`, default 503). */
  flaky?: { tag: string; failures: number };
  /** Video jobs: milliseconds from creation to the end state (default 300). */
  videoMs?: number;
  /** Video jobs: end failed instead of completed. */
  videoFail: boolean;
  /** Video jobs: stay in progress forever. */
  videoStuck: boolean;
  /** Video jobs: `video_status_ms=N`, every status call about the job answers N ms late (the state as it was when the call came). */
  videoStatusMs?: number;
  /** Count prompt tokens as a worst-case byte-level tokenizer does: one per UTF-8 byte. */
  byteTokens: boolean;
  /** Prompt tokens each image part costs (like a provider pricing images by pixels). */
  imageTokens: number;
  /** Prompt tokens each audio part costs (like a provider pricing audio by duration). */
  audioTokens: number;
  /** Answer `usage: {}` (a provider that reports no counts). */
  emptyUsage: boolean;
  /** Reply with this many words instead of the echo (long answers and streams). */
  words?: number;
  /** `cached=N`: report N of the prompt tokens as read from the prompt cache (at most all of them). */
  cachedTokens: number;
  /**
   * `promptcache` (on the model name): a provider's prompt cache, per model name (so per deployment):
   * a request whose messages begin with an earlier request's whole prompt reads those tokens from the
   * cache (reported as cached), as a real provider's prefix cache does.
   */
  promptCache: boolean;
  /** `reasoning=N`: N reasoning tokens per choice (within the completion limit), part of the completion tokens. */
  reasoningTokens: number;
  /**
   * `reasoning_rate=R`: the reasoning tokens are spent at R per second before the first visible
   * token (as a reasoning model thinks before it answers), so a stream's first frame comes
   * reasoning / R seconds after the request; 0 (the default): at once.
   */
  reasoningRate: number;
  /** `stream_error=N`: after N content chunks the stream carries the provider's error event (then nothing more). */
  streamErrorAfter?: number;
  /** `block` or `block=REASON`: Gemini blocks the prompt (promptFeedback.blockReason, no candidates; default SAFETY). */
  block?: string;
  /** `tier=NAME`: the OpenAI shapes state this `service_tier` beside their usage (as OpenAI does: default, flex, priority). */
  serviceTier?: string;
}

const MARKER = /\[\[fake:([^\]]*)\]\]/g;

export function parseDirectives(modelName: string, prompt: string): Directives {
  const d: Directives = {
    delayMs: 0,
    chunkDelayMs: 0,
    malformed: false,
    noUsage: false,
    noDone: false,
    videoFail: false,
    videoStuck: false,
    byteTokens: false,
    imageTokens: 0,
    audioTokens: 0,
    emptyUsage: false,
    cachedTokens: 0,
    promptCache: false,
    reasoningTokens: 0,
    reasoningRate: 0,
  };
  const parts = modelName.split("+").slice(1);
  for (const m of prompt.matchAll(MARKER)) parts.push(...(m[1] ?? "").split(","));
  for (const raw of parts) {
    const [k, v] = raw.trim().split("=") as [string, string | undefined];
    const n = Number(v);
    switch (k) {
      case "delay":
        d.delayMs = n;
        break;
      case "chunk_delay":
        d.chunkDelayMs = n;
        break;
      case "status":
        d.status = n;
        break;
      case "malformed":
        d.malformed = true;
        break;
      case "cut":
        d.cutAfter = n;
        break;
      case "nodone":
        d.noDone = true;
        break;
      case "nousage":
        d.noUsage = true;
        break;
      case "reply":
        d.reply = v ?? "";
        break;
      case "retry_after":
        d.retryAfterS = n;
        break;
      case "video_ms":
        d.videoMs = n;
        break;
      case "video_fail":
        d.videoFail = true;
        break;
      case "video_stuck":
        d.videoStuck = true;
        break;
      case "tier":
        d.serviceTier = v;
        break;
      case "video_status_ms":
        d.videoStatusMs = n;
        break;
      case "byte_tokens":
        d.byteTokens = true;
        break;
      case "image_tokens":
        d.imageTokens = n;
        break;
      case "audio_tokens":
        d.audioTokens = n;
        break;
      case "emptyusage":
        d.emptyUsage = true;
        break;
      case "words":
        d.words = n;
        break;
      case "stream_error":
        d.streamErrorAfter = n;
        break;
      case "cached":
        d.cachedTokens = n;
        break;
      case "promptcache":
        d.promptCache = true;
        break;
      case "reasoning":
        d.reasoningTokens = n;
        break;
      case "reasoning_rate":
        d.reasoningRate = n;
        break;
      case "block":
        d.block = v || "SAFETY";
        break;
      case "flaky": {
        const [tag, count] = (v ?? "").split(":");
        d.flaky = { tag: tag ?? "", failures: Number(count ?? 1) };
        break;
      }
      default:
        break;
    }
  }
  return d;
}

/**
 * `[[fake-call:NAME {"json": "arguments"}]]` in the prompt scripts an agent's turn: when a user turn
 * is last and a tool of that name is offered, the fake calls it with those arguments (instead of the
 * first tool with the user's text); after the tool's result it answers with what the tool said.
 */
const CALL = /\[\[fake-call:([\w.:-]+)\s*(\{[\s\S]*?\})?\]\]/g;

export function scriptedCall(prompt: string, offered: readonly string[]): { name: string; args: unknown } | undefined {
  for (const m of prompt.matchAll(CALL)) {
    if (!offered.includes(m[1]!)) continue;
    try {
      return { name: m[1]!, args: JSON.parse(m[2] ?? "{}") as unknown };
    } catch {
      return { name: m[1]!, args: {} };
    }
  }
  return undefined;
}

export function stripMarkers(text: string): string {
  return text.replace(MARKER, "").replace(CALL, "").trim();
}

const flakySeen = new Map<string, number>();

/** Applies `flaky`: returns the status to fail with, or undefined once the tag has failed enough. */
export function flakyStatus(d: Directives): number | undefined {
  if (!d.flaky) return d.status;
  const seen = flakySeen.get(d.flaky.tag) ?? 0;
  flakySeen.set(d.flaky.tag, seen + 1);
  if (flakySeen.size > 10_000) flakySeen.delete(flakySeen.keys().next().value!);
  return seen < d.flaky.failures ? (d.status ?? 503) : undefined;
}
