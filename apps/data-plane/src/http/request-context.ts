import { randomFillSync } from "node:crypto";
import type { Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { AttemptV1 } from "@gateway/events";
import type { RuleOutcome } from "@gateway/guardrails";
import type { KeyContext } from "@gateway/proto";
import type { Attribution } from "../admission/attribution.js";
import type { RateLimitState } from "../admission/rate-limiter.js";
import type { RequestTrace } from "./tracing.js";

/** The guardrail outcomes of a request's input and output stages (absent: the stage has not run). */
export interface GuardState {
  input?: RuleOutcome[];
  output?: RuleOutcome[];
  /** UTF-8 bytes the input masks added to the prompt (a mask longer than what it hid). */
  grownBytes?: number;
}

/**
 * One request's state. Made when the request arrives (its id and clock), filled in by the stages
 * that learn something (authentication: the key; admission: the model, rate-limit state and
 * guardrail outcomes; the attempts: who served), read by those that report it (the headers, the
 * usage record, the access log, the trace). Handlers and the pipeline get it as an argument; only
 * the HTTP edge — middleware and the error handler — finds it from the response (`requestOf`).
 */
export class RequestContext {
  /** Unix ms when the request arrived. */
  readonly startedAt: number;
  /** process.hrtime.bigint() at arrival, for durations. */
  readonly startedHr: bigint;
  readonly requestId: string;
  key: KeyContext | undefined = undefined;
  keyHash: string | undefined = undefined;
  /** Model and route, for the access log. */
  model: string | undefined = undefined;
  /**
   * `model` was resolved for the key (a catalog model it can see, or a tool call's target): a refusal
   * record names it as a model then, not as whatever the caller sent (usage/refusals.ts).
   */
  modelResolved = false;
  /** The catalog version the model was resolved from: its prices are the request's (its usage event names it). */
  catalogVersion: number | undefined = undefined;
  /** Size of the request body after Content-Encoding was undone, bytes (the basis of the prompt bound). */
  bodyBytes: number | undefined = undefined;
  /** The deployment that served (or last failed), its retries and the providers fallen back from. */
  served: { provider: string; upstreamModel: string; retries: number; fallbacks: string[]; attempts: AttemptV1[] } | undefined = undefined;
  /** Request features the serving provider could not take, left out (x-gateway-dropped-params). */
  dropped: readonly string[] | undefined = undefined;
  /** The answer is an earlier request's, replayed for its Idempotency-Key (`Idempotent-Replayed: true`). */
  replayed?: boolean;
  /** `field=limit` when the request's output limit was clamped to the model's (x-gateway-clamped). */
  clamped?: string;
  /**
   * The request's agent session, where pinning sessions pays (routing/session-key.ts): its key in the
   * PINS bucket, how long a pin lives, and the deployment it was pinned to at admission.
   */
  session: { key: string; ttlMs: number; pinned: string | undefined } | undefined = undefined;
  /** Whose spend the request is: end user, project, tags (admission/attribution.ts); its budgets follow from it. */
  attribution: Attribution | undefined = undefined;
  /** The key's rate-limit state, for OpenAI's x-ratelimit-* headers (keys with limits only). */
  rateLimit: RateLimitState | undefined = undefined;
  /** The request's span and context, when the data-plane traces (http/tracing.ts). */
  trace: RequestTrace | undefined = undefined;
  /**
   * Where the time went, for the Server-Timing header (ms): the serving attempt at the provider
   * (the whole answer, or until a stream's first frame), and the wait for the usage event to be
   * durable (JetStream's acknowledgement or the spool's fdatasync) before the answer was released.
   */
  upstreamMs: number | undefined = undefined;
  usageMs: number | undefined = undefined;
  /** Minor credit units the request was billed, once its usage event is durable (an MCP call's error names it). */
  billedMinor: number | undefined = undefined;
  /** The error body's shape: the Messages API's routes answer in Anthropic's (http/errors.ts). */
  errorShape: "anthropic" | undefined = undefined;
  /** Guardrail outcomes, for the x-gateway-guardrails header and the usage record (guardrails/index.ts). */
  readonly guardrails: GuardState = {};

  constructor(now = Date.now(), requestId = newRequestId(now)) {
    this.startedAt = now;
    this.startedHr = process.hrtime.bigint();
    this.requestId = requestId;
  }
}

/** A request past authentication: its key is known. */
export type Authenticated = RequestContext & { readonly key: KeyContext };

/**
 * One call of a JSON-RPC batch (an MCP tool call) as a request of its own: its id, clock, guardrail
 * outcomes and record, under the HTTP request's key and trace. What the HTTP answer reports of it
 * (the rate-limit state, the guardrails) is copied back by `reportCall`.
 */
export function callContext(http: Authenticated, requestId: string): Authenticated {
  const call = new RequestContext(Date.now(), requestId);
  call.key = http.key;
  call.keyHash = http.keyHash;
  call.trace = http.trace;
  call.attribution = http.attribution;
  return call as Authenticated;
}

/** What the HTTP answer's headers say of the batch's calls: the last rate-limit state and guardrail outcomes. */
export function reportCall(http: Authenticated, call: Authenticated): void {
  if (call.rateLimit) http.rateLimit = call.rateLimit;
  if (call.guardrails.input) http.guardrails.input = call.guardrails.input;
  if (call.guardrails.output) http.guardrails.output = call.guardrails.output;
  if (call.model) http.model = call.model;
}

/** The request past authentication; a handler mounted without it (a wiring mistake) fails closed. */
export function authenticated(rq: RequestContext): Authenticated {
  if (!isAuthenticated(rq)) throw new GatewayError("missing_api_key", "No API key provided. Send 'Authorization: Bearer sk-gateway-…'.");
  return rq;
}

function isAuthenticated(rq: RequestContext): rq is Authenticated {
  return rq.key !== undefined;
}

/** The first middleware's: the request's context, kept with the response for the rest of the edge. */
export function startRequest(res: Response): RequestContext {
  const rq = new RequestContext();
  res.locals.request = rq;
  return rq;
}

/** The request's context, for the HTTP edge (middleware, the error handler, the handler wrapper). */
export function requestOf(res: Response): RequestContext {
  return res.locals.request as RequestContext;
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
