/**
 * Test support for the pipeline's unit tests (not used by the server): a scripted provider in
 * place of `ctx.upstream.send`, a fake express Response that records what the client got, and a
 * minimal DataPlaneContext with only what the attempt loop, the stream relay and the ending touch.
 * The usage publisher and the reservation record what they are given: they are the billing boundary.
 */
import { EventEmitter } from "node:events";
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import type { Request, Response } from "express";
import { errors as undiciErrors } from "undici";
import type { UsageEventV1 } from "@gateway/events";
import type { GuardrailRule } from "@gateway/guardrails";
import type { KeyContext, Model } from "@gateway/proto";
import type { Planned } from "../../admission/plan.js";
import type { DataPlaneContext } from "../../context.js";
import type { Reservation } from "../../credits/lease-manager.js";
import { RequestContext, authenticated } from "../../http/request-context.js";
import { CircuitBreaker } from "../../providers/circuit-breaker.js";
import type { CatalogProvider, ProviderKind, UpstreamHttpRequest } from "../../providers/index.js";
import { PROVIDERS } from "../../providers/table.js";
import { UpstreamTransportError, classify, type PoolSettings } from "../../providers/upstream-client.js";
import type { Bound } from "../../admission/admit.js";
import { clientSignal, worstCaseOf } from "../attempts.js";
import type { Call } from "../route.js";

// ---------------------------------------------------------------------------------------------
// The script

/** Settles when `release()` is called: holds a scripted reply or read until the test lets it go. */
export interface Gate {
  promise: Promise<void>;
  release(): void;
}

export function gate(): Gate {
  let release!: () => void;
  const promise = new Promise<void>((r) => (release = r));
  return { promise, release };
}

/**
 * One read of a response body: bytes (one SSE chunk or several, as one network read delivers
 * them), or the connection breaking. `gate` holds it until released; `delayMs` adds a small pause
 * (never needed for synchronisation: use a gate).
 */
export type Read = string | { data: string; gate?: Promise<unknown>; delayMs?: number } | { fail: Error; gate?: Promise<unknown>; delayMs?: number };

/** How the scripted provider answers one call. `gate` holds the response headers until released. */
export type Reply =
  | { kind: "json"; status: number; headers: Record<string, string>; body: unknown; gate?: Promise<unknown> }
  | { kind: "sse"; status: number; headers: Record<string, string>; reads: Read[]; gate?: Promise<unknown> }
  | { kind: "refused"; message: string; gate?: Promise<unknown> }
  | { kind: "timeout"; gate?: Promise<unknown> };

interface ReplyOptions {
  status?: number;
  headers?: Record<string, string>;
  gate?: Promise<unknown>;
}

/** A whole JSON answer (any status; an error body for a non-200). */
export function jsonReply(body: unknown, o: ReplyOptions = {}): Reply {
  return { kind: "json", status: o.status ?? 200, headers: { "content-type": "application/json", ...o.headers }, body, ...(o.gate ? { gate: o.gate } : {}) };
}

/** A streamed answer: the status and headers, then each read in turn; the body ends after the last. */
export function sseReply(reads: Read[], o: ReplyOptions = {}): Reply {
  return { kind: "sse", status: o.status ?? 200, headers: { "content-type": "text/event-stream", ...o.headers }, reads, ...(o.gate ? { gate: o.gate } : {}) };
}

/** The connection fails before any response (as the real client reports it: a transport error). */
export function refusedReply(message = "connect ECONNREFUSED 127.0.0.1:9"): Reply {
  return { kind: "refused", message };
}

/** The provider received the request and sent no answer within the attempt's timeout (undici's headers timeout). */
export function timeoutReply(): Reply {
  return { kind: "timeout" };
}

/** The connection closes under a body being read (undici's "other side closed"). */
export function brokenRead(message = "other side closed"): Read {
  return { fail: new undiciErrors.SocketError(message) };
}

/** One SSE event: `data:` with the JSON (or the text as is), optionally named. */
export function sse(data: unknown, event?: string): string {
  return `${event ? `event: ${event}\n` : ""}data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

export const SSE_DONE = "data: [DONE]\n\n";

/** An OpenAI chat-completions chunk from the provider (its own model name). */
export function openAIChunk(o: { content?: string; role?: string; finish?: string; usage?: Record<string, unknown> | null; noChoices?: boolean }, model = "alpha-model"): Record<string, unknown> {
  const delta: Record<string, unknown> = {};
  if (o.role) delta.role = o.role;
  if (o.content !== undefined) delta.content = o.content;
  return {
    id: "chatcmpl-test",
    object: "chat.completion.chunk",
    created: 1_700_000_000,
    model,
    choices: o.noChoices ? [] : [{ index: 0, delta, logprobs: null, finish_reason: o.finish ?? null }],
    ...(o.usage !== undefined ? { usage: o.usage } : {}),
  };
}

/** An OpenAI chat completion (a non-streaming answer). */
export function openAICompletion(content: string, usage: Record<string, unknown> | undefined, model = "alpha-model"): Record<string, unknown> {
  return {
    id: "chatcmpl-answer",
    object: "chat.completion",
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop", logprobs: null }],
    ...(usage ? { usage } : {}),
  };
}

/** An Anthropic Messages stream event, framed as the API frames it (`event:` + `data:`). */
export function anthropicEvent(data: Record<string, unknown> & { type: string }): string {
  return sse(data, data.type);
}

// ---------------------------------------------------------------------------------------------
// The scripted provider

/** A merged abort: rejects a wait when the request's signal aborts or the body is destroyed. */
function abortable<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(new undiciErrors.RequestAbortedError());
    if (signal.aborted) return onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (err: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(err);
      },
    );
  });
}

/**
 * A response body as undici's is: a Readable (undici's BodyReadable is one) with `.text()` and
 * `.json()`, that follows the request's signal (once it aborts, the body fails with
 * RequestAbortedError). Each scripted read is one chunk, asked for by the stream machinery's
 * `_read` (a high-water mark of 0: nothing is read ahead of the reader) and pushed on a later turn,
 * so one `read()` returns one scripted read, never two merged.
 */
export class ScriptedBody extends Readable {
  /** Reads asked for so far (the next read's index). */
  asked = 0;
  /** Reads handed over (bytes pushed or a failure raised), before the body was destroyed. */
  delivered = 0;
  private readonly waiters: Array<{ index: number; resolve: () => void }> = [];

  constructor(
    private readonly reads: readonly Read[],
    request: AbortSignal,
  ) {
    super({ highWaterMark: 0 });
    const onAbort = () => this.destroy(new undiciErrors.RequestAbortedError());
    if (request.aborted) queueMicrotask(onAbort);
    else request.addEventListener("abort", onAbort, { once: true });
    this.once("close", () => request.removeEventListener("abort", onAbort));
  }

  /** All of it, as one string (an error body, or a JSON answer). */
  async text(): Promise<string> {
    let s = "";
    for await (const c of this) s += Buffer.from(c as Uint8Array).toString("utf8");
    return s;
  }

  async json(): Promise<unknown> {
    return JSON.parse(await this.text());
  }

  /** Settles when read `index` (0-based) is asked for: the reader is waiting for it now. */
  asking(index: number): Promise<void> {
    if (this.asked > index) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push({ index, resolve }));
  }

  override _read(): void {
    const index = this.asked++;
    for (const w of this.waiters.filter((x) => x.index < this.asked)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve();
    }
    const read = this.reads[index];
    const held = typeof read === "object" ? Promise.all([read.gate, read.delayMs ? sleep(read.delayMs) : undefined]) : Promise.resolve();
    // Never in the same turn as the ask: a read is its own chunk, as a network read is.
    void held.then(
      () =>
        setImmediate(() => {
          if (this.destroyed) return;
          if (read === undefined) return void this.push(null);
          this.delivered++;
          if (typeof read === "object" && "fail" in read) return void this.destroy(read.fail);
          this.push(Buffer.from(typeof read === "string" ? read : read.data));
        }),
      () => undefined,
    );
  }
}

/** One call the gateway made to the scripted provider. */
export interface UpstreamCall {
  provider: string;
  request: UpstreamHttpRequest;
  signal: AbortSignal;
  /** The response body handed back (absent: no response, a transport failure). */
  body: ScriptedBody | undefined;
}

/**
 * Stands in for UpstreamClient.send: answers the n-th call with the n-th reply of the script, in
 * the shape the real client returns (`{ res: { status, headers, body } }`), and fails as it does
 * (transport errors classified). A call beyond the script fails the test's expectations on
 * `calls` (it is answered like a refused connection).
 */
export class ScriptedUpstream {
  readonly calls: UpstreamCall[] = [];
  private readonly waiters: Array<{ n: number; resolve: (c: UpstreamCall) => void }> = [];

  constructor(private readonly script: readonly Reply[]) {}

  async send(provider: PoolSettings, request: UpstreamHttpRequest, _timeoutMs: number, signal: AbortSignal) {
    const call: UpstreamCall = { provider: provider.code, request, signal, body: undefined };
    this.calls.push(call);
    for (const w of this.waiters.filter((x) => x.n <= this.calls.length)) {
      this.waiters.splice(this.waiters.indexOf(w), 1);
      w.resolve(this.calls[w.n - 1]!);
    }
    const reply = this.script[this.calls.length - 1] ?? refusedReply(`unscripted upstream call #${this.calls.length}`);
    try {
      if (reply.gate) await abortable(reply.gate, signal);
      if (reply.kind === "refused") throw new undiciErrors.SocketError(reply.message);
      if (reply.kind === "timeout") throw new undiciErrors.HeadersTimeoutError();
    } catch (err) {
      // Aborted while its answer was held: the request had been written (the provider has it).
      if (signal.aborted && reply.kind !== "refused") throw new UpstreamTransportError("aborted", "client went away", true);
      throw classify(err, signal);
    }
    const body = new ScriptedBody(reply.kind === "json" ? [JSON.stringify(reply.body)] : reply.reads, signal);
    call.body = body;
    return { res: { status: reply.status, headers: reply.headers, body }, signal };
  }

  /** Settles with the n-th call (1-based) once it was made. */
  called(n: number): Promise<UpstreamCall> {
    if (this.calls.length >= n) return Promise.resolve(this.calls[n - 1]!);
    return new Promise((resolve) => this.waiters.push({ n, resolve }));
  }

  /** The JSON body the gateway sent in the n-th call (1-based). */
  sentBody(n: number): Record<string, unknown> {
    return JSON.parse(this.calls[n - 1]!.request.body ?? "null") as Record<string, unknown>;
  }
}

// ---------------------------------------------------------------------------------------------
// The client side

/**
 * What express's Response offers these paths, recording what the client got: the status and
 * headers, each write() as a frame (always accepted: returns true), the end() payload. `leave()`
 * is the client going away (the socket closes before the response finished).
 */
export class FakeResponse extends EventEmitter {
  statusCode = 200;
  headersSent = false;
  writableFinished = false;
  readonly headers: Record<string, string | number | readonly string[]> = {};
  /** What each write() sent, in order. */
  readonly frames: string[] = [];
  /** What end() sent (undefined: end() not called, or called without data). */
  ended: string | undefined;
  endCalls = 0;
  writeHeadCalls = 0;
  left = false;
  /** Called after each write() with the frames so far (e.g. to leave after the n-th). */
  onWrite: ((frames: readonly string[]) => void) | undefined;
  readonly socket = undefined;

  constructor(
    readonly locals: { request: RequestContext },
    private readonly timeline: string[],
  ) {
    super();
  }

  setHeader(name: string, value: string | number | readonly string[]): this {
    if (this.headersSent) throw new Error(`setHeader(${name}) after the headers were sent`);
    this.headers[name.toLowerCase()] = value;
    return this;
  }

  getHeader(name: string): string | number | readonly string[] | undefined {
    return this.headers[name.toLowerCase()];
  }

  writeHead(status: number, headers?: Record<string, string>): this {
    if (this.headersSent) throw new Error("writeHead after the headers were sent");
    this.writeHeadCalls++;
    this.statusCode = status;
    for (const [k, v] of Object.entries(headers ?? {})) this.headers[k.toLowerCase()] = v;
    this.headersSent = true;
    this.timeline.push("writeHead");
    return this;
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.writableFinished) throw new Error("write after end");
    this.headersSent = true;
    // Bytes as a client decodes them (the gateway writes UTF-8 it encoded itself).
    this.frames.push(typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8"));
    this.timeline.push("write");
    this.onWrite?.(this.frames);
    return true;
  }

  end(chunk?: string | Uint8Array): this {
    if (this.writableFinished) throw new Error("end called twice");
    this.endCalls++;
    this.headersSent = true;
    if (chunk !== undefined) this.ended = typeof chunk === "string" ? chunk : Buffer.from(chunk).toString("utf8");
    this.writableFinished = true;
    this.timeline.push("end");
    this.emit("finish");
    this.emit("close");
    return this;
  }

  /** The client goes away: the connection closes before the response finished. */
  leave(): void {
    this.left = true;
    this.timeline.push("client-left");
    this.emit("close");
  }

  /** Everything the client received, in order. */
  get received(): string {
    return this.frames.join("") + (this.ended ?? "");
  }
}

// ---------------------------------------------------------------------------------------------
// The test bed: a context, a model with its deployments, a request

export interface Deployed {
  code: string;
  kind: ProviderKind;
}

export interface BedOptions {
  script: Reply[];
  /** The model's deployments in routing order (default: one OpenAI-compatible, `alpha`). */
  deployments?: Deployed[];
  /** Retries of one deployment before falling back (default 1). */
  retries?: number;
  /** Consecutive failures that open a deployment's breaker (default 5). */
  breakerThreshold?: number;
  /** The org's guardrail rules (normalized, as the control-plane sends them). */
  guardrails?: GuardrailRule[];
  /** Holds each usage publish until released (the event becoming durable at JetStream). */
  publishGate?: Promise<unknown>;
  /** One attempt's worst case, minor units (default: the whole hold, 1,000,000). */
  worstMinor?: number;
  /** DATA_PLANE_CLIENT_GONE_DRAIN_MS (default 0: a stream is cancelled as soon as its client leaves). */
  drainMs?: number;
  /** The clock stream timing reads (default: performance.now). */
  now?: () => number;
  /** Catalog fields of the model beside the test's defaults (reasoning, its output rate …). */
  model?: Partial<Model>;
  /** DATA_PLANE_HOLD_TRANCHE_CHECK_MS (default 5). */
  trancheCheckMs?: number;
}

export interface Bed {
  ctx: DataPlaneContext;
  upstream: ScriptedUpstream;
  /** What the client got. */
  res: FakeResponse;
  /** The request's context: what the stages recorded (who served, guardrail outcomes). */
  state: RequestContext;
  model: Model;
  planned: Planned<"chat">[];
  /** Usage events handed to the publisher, in order. */
  published: UsageEventV1[];
  /** What the reservation was settled with, in order. */
  settled: number[];
  /** Attempts as the metric counts them. */
  attempts: Array<{ provider: string; outcome: string }>;
  /** Ordered marks: publish, durable, settle, writeHead, write, end, client-left (tests add their own). */
  timeline: string[];
  /** The request's call (one per bed: its client signal follows `res`). */
  /** A call of `body`, whose decoded size was `bodyBytes` (the prompt estimate's basis). */
  call<B>(body: B, bodyBytes?: number): Call<B, "chat">;
}

/** Prices: 1 minor unit per input token, 2 per output token, so costs read off the counts. */
export const INPUT_PRICE = 1_000_000;
export const OUTPUT_PRICE = 2_000_000;

let orgs = 0;

export function testbed(o: BedOptions): Bed {
  const timeline: string[] = [];
  const published: UsageEventV1[] = [];
  const settled: number[] = [];
  const attempts: Array<{ provider: string; outcome: string }> = [];
  const deployments = o.deployments ?? [{ code: "alpha", kind: "openai-compatible" }];
  const providers: CatalogProvider[] = deployments.map((d) => ({
    code: d.code,
    kind: d.kind,
    base_url: `https://${d.code}.example/v1`,
    credential_ref: "",
    auth_header: "",
    max_connections: 0,
    http2: false,
  }));
  const model: Model = {
    id: "gw-chat",
    status: "active",
    routes: ["chat", "messages", "responses"],
    context_window: 128_000,
    max_output_tokens: 4_096,
    input_price_minor_per_mtok: INPUT_PRICE,
    output_price_minor_per_mtok: OUTPUT_PRICE,
    deployments: deployments.map((d, i) => ({ provider: d.code, upstream_model: `${d.code}-model`, priority: i, weight: 1 })),
    image_prices: [],
    video: null,
    max_input_tokens_per_image: 0,
    max_input_tokens_per_audio: 0,
    default_image_size: "",
    long_context_threshold_tokens: 0,
    reasoning: false,
    max_output_tokens_per_second: 0,
    max_input_tokens_per_pdf_page: 0,
    max_input_tokens_per_media_second: 0,
    max_input_tokens_per_url_part: 0,
    max_input_tokens_per_web_search: 0,
    tool_prompt_tokens: 0,
    anthropic_betas: [],
    ...o.model,
  };
  const planned: Planned<"chat">[] = providers.map((provider, i) => ({
    target: { provider, deployment: model.deployments[i]!, apiKey: "sk-test" },
    adapter: PROVIDERS[provider.kind].capabilities.chat!,
  }));
  const key: KeyContext = {
    key_id: "key-test",
    org_id: `org-pipeline-${++orgs}`,
    org_name: "Test org",
    revoked: false,
    routes: [],
    model_allowlist: [],
    org_enabled_models: [],
    org_in_trial: false,
    rpm_limit: 0,
    tpm_limit: 0,
    monthly_budget_minor: 0,
    display_prefix: "gw-test",
    guardrails_json: o.guardrails ? JSON.stringify(o.guardrails) : "",
    guardrails_version: 1,
    org_mcp_servers: [],
    mcp_tool_allowlist: [],
    org_output_limit: "",
    key_budget: null,
    project_id: "",
    project_budget: null,
    key_tags: [],
    org_time_zone: "",
    org_budget: null,
    end_user_source: "",
    end_user_budget: null,
    end_user_overrides: {},
    alert_thresholds_pct: [],
    balance_alerts_minor: [],
  };
  const state = new RequestContext(Date.now(), "req_test0000000001");
  state.key = key;
  const res = new FakeResponse({ request: state }, timeline);
  const upstream = new ScriptedUpstream(o.script);
  const count = () => ({ inc: () => undefined });
  const partial = {
    config: {
      upstreamRetries: o.retries ?? 1,
      retryBaseMs: 1,
      retryMaxMs: 2,
      upstreamTimeoutMs: 5_000,
      upstreamTimeoutMinMs: 1_000,
      upstreamTimeoutMaxMs: 10_000,
      clientGoneDrainMs: o.drainMs ?? 0,
      holdTrancheCheckMs: o.trancheCheckMs ?? 5,
    },
    ...(o.now ? { now: o.now } : {}),
    metrics: {
      upstreamAttempts: { inc: (l: { provider: string; outcome: string }) => void attempts.push({ provider: l.provider, outcome: l.outcome }) },
      guardrailOutcomes: count(),
    },
    breaker: new CircuitBreaker(o.breakerThreshold ?? 5, 60_000),
    upstream,
    publisher: {
      publish: async (event: UsageEventV1) => {
        published.push(event);
        timeline.push("publish");
        if (o.publishGate) await o.publishGate;
        timeline.push("durable");
      },
    },
    rateLimiter: { addTokens: () => undefined },
  };
  // The one place the partial context, the fake response and the unused request are cast.
  const ctx = partial as unknown as DataPlaneContext;
  const response = res as unknown as Response;
  const req = { headers: {} } as unknown as Request;
  const reservation: Reservation = {
    leaseId: "lease-test",
    amount: 1_000_000,
    settle: (actual) => {
      settled.push(actual);
      timeline.push("settle");
    },
  };
  // One attempt's worst case: the whole hold unless the test says it is smaller.
  const bound: Bound = { prompt: 1_000, output: 4_096, perUse: 0, total: o.worstMinor ?? reservation.amount };
  const client = clientSignal(response);
  return {
    ctx,
    upstream,
    res,
    state,
    model,
    planned,
    published,
    settled,
    attempts,
    timeline,
    call: (body, bodyBytes) => ({
      body,
      state: Object.assign(authenticated(state), { bodyBytes }),
      model,
      planned,
      // Tests translate with translateFor and pass the routes to serveChat themselves.
      routed: [],
      reservation,
      bound,
      req,
      res: response,
      client,
      timeoutMs: 5_000,
      holdMinor: reservation.amount,
      worst: worstCaseOf(model, bound),
    }),
  };
}

// ---------------------------------------------------------------------------------------------
// Reading what the client got

/** The `data:` payloads of SSE text, in order: parsed JSON, or the text as is (`[DONE]`). */
export function dataOf(text: string): unknown[] {
  const out: unknown[] = [];
  for (const block of text.split("\n\n")) {
    const data = block
      .split("\n")
      .filter((l) => l.startsWith("data: "))
      .map((l) => l.slice(6))
      .join("\n");
    if (!data) continue;
    try {
      out.push(JSON.parse(data));
    } catch {
      out.push(data);
    }
  }
  return out;
}

/** The chat-completions text a client assembled from the chunks it received. */
export function chatContent(text: string): string {
  let s = "";
  for (const d of dataOf(text)) {
    const choices = (d as { choices?: Array<{ delta?: { content?: unknown } }> } | null)?.choices ?? [];
    for (const c of choices) if (typeof c.delta?.content === "string") s += c.delta.content;
  }
  return s;
}

/**
 * One turn of the event loop: every promise continuation already queued has run (no clock
 * involved). For asserting that something is still held back after all there was to do.
 */
export function nextTurn(): Promise<void> {
  return new Promise((resolve) => setImmediate(resolve));
}
