import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import { MAX_RECORDED_ATTEMPTS, type AttemptV1, type LineItem } from "@gateway/events";
import { SpanKind, endWithError, type Span } from "@gateway/observability";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { Bound } from "../admission/admit.js";
import { maxTokenCostMinor, providerPrices } from "@gateway/pricing";
import type { NormalizedUsage, UpstreamHttpRequest, UpstreamTarget } from "../providers/index.js";
import { CircuitBreaker } from "../providers/circuit-breaker.js";
import { NEVER_ABORTED, UpstreamTransportError, classify, withUpstreamStatus, type UpstreamResponse } from "../providers/upstream-client.js";
import type { RequestContext } from "../http/request-context.js";
import { startSpan, withSpan } from "../http/tracing.js";

/** Aborts when the client goes away before the response finished. */
export function clientSignal(res: Response): AbortSignal {
  const client = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) client.abort();
  });
  return client.signal;
}

/** What the provider did, as it is billed: the usage, its cost (minor credit units) and the line items when not tokens. */
export interface Charge {
  usage: NormalizedUsage;
  costMinor: number;
  lineItems?: LineItem[];
}

/**
 * Thrown by the attempt loop when the client went away: nothing is left to answer. `billed`: the
 * provider had the request (a stream's client left before its first frame and the drain window
 * passed): what it may have done is billed, the record's status 499. `refusal`: not the client but
 * its credit stopped the request before its first frame (a tranche the balance could not cover,
 * pipeline/tranches.ts): what the provider did is billed with the refusal's status, and the client
 * gets the refusal. Either way no other attempt follows.
 */
export class ClientGoneError extends Error {
  constructor(
    readonly billed?: { target: UpstreamTarget; charge: Charge },
    readonly refusal?: GatewayError,
  ) {
    super("client went away");
  }
}

/**
 * Whether another attempt may follow. Not after a timeout of a request the provider received (or a
 * stream that went quiet after it answered): the provider may still be generating it, and will bill
 * it, and the hold covers one worst case, so a second attempt could spend past it (docs/billing.md).
 */
function retryable(err: GatewayError | UpstreamTransportError): boolean {
  if (err instanceof UpstreamTransportError) return err.kind === "connect" || (err.kind === "timeout" && !err.sent);
  return err.code === "upstream_error" || err.code === "model_unavailable";
}

const timedOut = (err: GatewayError | UpstreamTransportError) => (err instanceof UpstreamTransportError ? err.kind === "timeout" : err.code === "upstream_timeout");

export function toGatewayError(err: GatewayError | UpstreamTransportError): GatewayError {
  if (err instanceof GatewayError) return err;
  if (err.kind === "timeout") return new GatewayError("upstream_timeout", "The provider did not answer within the timeout.");
  return new GatewayError("upstream_error", "The provider could not be reached.");
}

/** The per-attempt timeout: x-gateway-timeout-ms clamped to the server's bounds; invalid → default. */
export function clampedTimeout(ctx: DataPlaneContext, req: Request): number {
  const raw = req.headers["x-gateway-timeout-ms"];
  const v = typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(v) || v < 1000) return ctx.config.upstreamTimeoutMs;
  return Math.min(Math.max(v, ctx.config.upstreamTimeoutMinMs), ctx.config.upstreamTimeoutMaxMs);
}

/**
 * The worst one attempt can cost, for the attempt policy and for the record of an attempt whose
 * outcome the provider never told (a timeout after it received the request).
 */
export interface WorstCase {
  input_tokens: number;
  output_tokens: number;
  /** At the catalog's price, minor credit units: the request's bound. */
  cost_minor: number;
  /** At the deployment's cost price. */
  providerCost(target: UpstreamTarget): number;
}

/** A request's worst case per attempt: its bound, at the catalog's price and at each deployment's cost price. */
export function worstCaseOf(model: Model, bound: Bound): WorstCase {
  return {
    input_tokens: bound.prompt,
    output_tokens: bound.output,
    cost_minor: bound.total,
    providerCost(t) {
      const prices = providerPrices(model, t.deployment);
      return bound.unitPriced || prices === model ? bound.total : maxTokenCostMinor(bound.prompt, bound.output, prices, bound.audio) + bound.perUse;
    },
  };
}

/** What the attempt loop needs of the request beside its deployments. */
export interface AttemptCall {
  /** The request: the loop records what served it (or failed last) there, for the headers and the bill. */
  state: RequestContext;
  /** Aborts when the client goes away. */
  client: AbortSignal;
  /** The credit held for the request, minor units: the worst cases of all attempts must fit in it. */
  holdMinor: number;
  worst: WorstCase;
}

/** The attempts a request made, as the ledger records them (the served one is completed when billed, pipeline/bill.ts). */
export type AttemptRecords = AttemptV1[];

function recordAttempt(attempts: AttemptRecords, a: Omit<AttemptV1, "attempt">): AttemptV1 {
  const rec = { attempt: attempts.length + 1, ...a };
  // Bounded: retries × deployments stay far below it; past it the last slot shows the latest.
  if (attempts.length < MAX_RECORDED_ATTEMPTS) attempts.push(rec);
  else attempts[MAX_RECORDED_ATTEMPTS - 1] = rec;
  return rec;
}

/**
 * The one attempt loop of every route: calls `attempt` on the planned deployments until one
 * succeeds. A retryable failure (transport, 429, 5xx, an invalid answer: the provider generated
 * nothing) retries the same deployment with exponential backoff and full jitter (Retry-After
 * honoured up to the cap), then falls back to the next; every outcome feeds the circuit breaker and
 * the attempts metric, and is recorded for the ledger (AttemptV1). What served the request (or
 * what failed) is recorded in the request's context for the response headers.
 *
 * The attempt policy (docs/billing.md, "Attempts and who pays"): an attempt that reached the
 * provider and timed out counts at its worst case (the request's bound: the provider may still be
 * generating it and will bill it); another attempt starts only while the worst cases of all such
 * attempts and the next one fit the hold, otherwise the timeout is the answer (a 504). With a hold
 * of one bound, that is no attempt after such a timeout. A client that went away stops the loop (no
 * new attempt starts) with ClientGoneError.
 */
export async function attemptAll<P extends { target: UpstreamTarget }, T>(
  ctx: DataPlaneContext,
  call: AttemptCall,
  planned: readonly P[],
  attempt: (p: P) => Promise<T>,
): Promise<{ planned: P; value: T }> {
  const { state: l, client, holdMinor, worst } = call;
  const attempts: AttemptRecords = [];
  const served = { provider: "", upstreamModel: "", retries: 0, fallbacks: [] as string[], attempts };
  l.served = served;
  const { upstreamRetries, retryMaxMs, retryBaseMs } = ctx.config;
  let lastErr: GatewayError | UpstreamTransportError | undefined;
  // Worst cases of the attempts the provider may bill although they served nothing, minor units.
  let exposed = 0;
  for (let i = 0, n = 0; i < planned.length; n++) {
    if (client.aborted) throw new ClientGoneError();
    const p = planned[i]!;
    const { provider, deployment } = p.target;
    const breakerKey = CircuitBreaker.key(provider.code, deployment.upstream_model);
    served.provider = provider.code;
    served.upstreamModel = deployment.upstream_model;
    const span = l.trace?.recording ? attemptSpan(l, p, n, served.retries, i) : undefined;
    const startedAt = performance.now();
    const unbilled = (outcome: AttemptV1["outcome"], status: number) =>
      recordAttempt(attempts, {
        provider: provider.code,
        upstream_model: deployment.upstream_model,
        status,
        outcome,
        input_tokens: 0,
        output_tokens: 0,
        estimated: false,
        cost_minor: 0,
        provider_cost_minor: 0,
        payer: "none",
        duration_ms: Math.round(performance.now() - startedAt),
      });
    try {
      const value = await (span ? withSpan(span, () => attempt(p)) : attempt(p));
      l.upstreamMs = performance.now() - startedAt;
      // Completed by the bill with the usage and cost (or, if nothing is billed, by the failure record).
      unbilled("served", 200);
      ctx.metrics.upstreamAttempts.inc({ provider: provider.code, outcome: "ok" });
      ctx.breaker.success(breakerKey);
      if (span) endAttempt(span, "ok");
      return { planned: p, value };
    } catch (err) {
      if (err instanceof ClientGoneError) {
        // Billed: completed by the bill as the served attempt, its outcome client_gone.
        if (err.billed) unbilled("served", 200);
        else unbilled("client_gone", 0);
        if (span) endAttempt(span, "aborted", err);
        throw err;
      }
      const e = err instanceof GatewayError ? err : classify(err, client);
      const outcome = e instanceof UpstreamTransportError ? e.kind : e.code;
      ctx.metrics.upstreamAttempts.inc({ provider: provider.code, outcome });
      if (span) endAttempt(span, outcome, e);
      const sentTimeout = e instanceof UpstreamTransportError && e.kind === "timeout" && e.sent;
      if (sentTimeout) {
        // The provider received it and may bill it: its worst case, absorbed by the operator.
        const rec = unbilled("timeout", 0);
        Object.assign(rec, {
          input_tokens: worst.input_tokens,
          output_tokens: worst.output_tokens,
          estimated: true,
          cost_minor: worst.cost_minor,
          provider_cost_minor: worst.providerCost(p.target),
          payer: "operator",
        });
        exposed += worst.cost_minor;
      } else unbilled(client.aborted ? "client_gone" : "failed", e instanceof GatewayError ? (e.context.upstream_status ?? 0) : 0);
      if (client.aborted) throw new ClientGoneError();
      // A timeout ends the request but still tells of the deployment's health.
      const again = retryable(e) || (sentTimeout && exposed + worst.cost_minor <= holdMinor);
      if (again || timedOut(e)) ctx.breaker.failure(breakerKey);
      if (!again) throw toGatewayError(e);
      lastErr = e;
      const retryAfterMs = e instanceof GatewayError && e.context.retry_after_s !== undefined ? e.context.retry_after_s * 1000 : undefined;
      if (served.retries < upstreamRetries && (retryAfterMs === undefined || retryAfterMs <= retryMaxMs)) {
        served.retries++;
        const backoff = Math.random() * Math.min(retryMaxMs, retryBaseMs * 2 ** (served.retries - 1));
        await new Promise((r) => setTimeout(r, Math.max(backoff, retryAfterMs ?? 0)));
        continue;
      }
      served.fallbacks.push(provider.code);
      served.retries = 0;
      i++;
    }
  }
  served.provider = "";
  throw lastErr ? toGatewayError(lastErr) : new GatewayError("model_unavailable", "No provider could serve the request.");
}

/**
 * The span of one upstream attempt (a CLIENT span; the upstream client adds the provider's HTTP
 * status): which deployment, the attempt's number in the request, its retry number on that
 * deployment and its fallback position (0: the first deployment planned).
 */
function attemptSpan(rq: RequestContext, p: { target: UpstreamTarget }, attempt: number, retry: number, fallback: number): Span | undefined {
  const span = startSpan(rq, "gateway.upstream_attempt", SpanKind.CLIENT);
  if (span?.isRecording()) {
    span.setAttribute("gateway.provider", p.target.provider.code);
    span.setAttribute("gen_ai.provider.name", p.target.provider.kind);
    span.setAttribute("gen_ai.request.model", p.target.deployment.upstream_model);
    span.setAttribute("gateway.attempt", attempt);
    span.setAttribute("gateway.retry", retry);
    span.setAttribute("gateway.fallback", fallback);
  }
  return span;
}

function endAttempt(span: Span, outcome: string, err?: Error): void {
  span.setAttribute("gateway.outcome", outcome);
  if (err) endWithError(span, err);
  else span.end();
}

/** A non-200 answer as the adapter maps it (read whole: it is small). */
export async function upstreamFailure(up: UpstreamResponse, mapError: (status: number, text: string, retryAfter: string | undefined) => GatewayError): Promise<GatewayError> {
  const text = await up.body.text().catch(() => "");
  const ra = up.headers["retry-after"];
  return withUpstreamStatus(mapError(up.status, text, typeof ra === "string" ? ra : undefined), up.status);
}

/** One JSON request to a provider: the parsed body of a 200, the adapter's mapped error otherwise. */
export async function sendJson(
  ctx: DataPlaneContext,
  target: UpstreamTarget,
  request: UpstreamHttpRequest,
  timeoutMs: number,
  mapError: (status: number, text: string, retryAfter: string | undefined) => GatewayError,
): Promise<unknown> {
  // The provider charges for the work whether or not the client waits: the call runs to its end.
  const { res: up } = await ctx.upstream.send(target.provider, request, timeoutMs, NEVER_ABORTED);
  if (up.status !== 200) throw await upstreamFailure(up, mapError);
  try {
    return await up.body.json();
  } catch {
    throw new GatewayError("upstream_error", "The provider returned an invalid response.");
  }
}
