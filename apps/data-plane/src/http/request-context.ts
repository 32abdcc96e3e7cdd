import { randomFillSync } from "node:crypto";
import type { Response } from "express";
import type { AttemptV1 } from "@gateway/events";
import type { RuleOutcome } from "@gateway/guardrails";
import type { KeyContext } from "@gateway/proto";
import type { RateLimitState } from "../admission/rate-limiter.js";
import type { RequestTrace } from "./tracing.js";

/** The guardrail outcomes of a request's input and output stages (absent: the stage has not run). */
export interface GuardState {
  input?: RuleOutcome[];
  output?: RuleOutcome[];
  /** UTF-8 bytes the input masks added to the prompt (a mask longer than what it hid). */
  grownBytes?: number;
}

/** Per-request state kept on res.locals. */
export interface RequestLocals {
  requestId: string;
  /** Unix ms when the request arrived. */
  startedAt: number;
  /** process.hrtime.bigint() at arrival, for durations. */
  startedHr: bigint;
  key?: KeyContext;
  keyHash?: string;
  /** Model and route, for the access log. */
  model?: string;
  /** Size of the request body after Content-Encoding was undone, bytes (the basis of the prompt bound). */
  bodyBytes?: number;
  /** The deployment that served (or last failed), its retries and the providers fallen back from. */
  served?: { provider: string; upstreamModel: string; retries: number; fallbacks: string[]; attempts: AttemptV1[] };
  /** Request features the serving provider could not take, left out (x-gateway-dropped-params). */
  dropped?: readonly string[];
  /** The key's rate-limit state, for OpenAI's x-ratelimit-* headers (keys with limits only). */
  rateLimit?: RateLimitState;
  /** The request's span and context, when the data-plane traces (http/tracing.ts). */
  trace?: RequestTrace;
  /**
   * Where the time went, for the Server-Timing header (ms): the serving attempt at the provider
   * (the whole answer, or until a stream's first frame), and the wait for the usage event to be
   * durable (JetStream's acknowledgement or the spool's fdatasync) before the answer was released.
   */
  upstreamMs?: number;
  usageMs?: number;
  /** The error body's shape: the Messages API's routes answer in Anthropic's (http/errors.ts). */
  errorShape?: "anthropic";
  /** Guardrail outcomes, for the x-gateway-guardrails header and the usage record (guardrails/index.ts). */
  guardrails?: GuardState;
}

export function locals(res: Response): RequestLocals {
  return res.locals as RequestLocals;
}

/** Random bytes drawn from the CSPRNG 4 KiB at a time: one system call per 512 ids, not per id. */
const entropy = Buffer.allocUnsafe(4096);
let entropyAt = entropy.length;

function randomHex16(): string {
  if (entropyAt + 8 > entropy.length) {
    randomFillSync(entropy);
    entropyAt = 0;
  }
  entropyAt += 8;
  return entropy.toString("hex", entropyAt - 8, entropyAt);
}

/**
 * `req_` + 12 hex digits of Unix ms + 16 random hex digits: sortable, unguessable, and its age is
 * readable (GET /v1/usage waits only for recent ids).
 */
export function newRequestId(now = Date.now()): string {
  return `req_${now.toString(16).padStart(12, "0")}${randomHex16()}`;
}

/** A video job id: the same scheme with `vid_` (the job's usage record carries it). */
export function newVideoJobId(now = Date.now()): string {
  return `vid_${now.toString(16).padStart(12, "0")}${randomHex16()}`;
}

const REQUEST_ID = /^(?:req|vid)_([0-9a-f]{12})[0-9a-f]{16}$/;

/** Unix ms encoded in a request (or video job) id, or undefined when it is not one of ours. */
export function requestIdTime(id: string): number | undefined {
  const m = REQUEST_ID.exec(id);
  return m ? parseInt(m[1]!, 16) : undefined;
}
