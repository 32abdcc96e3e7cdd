import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { LineItem, UsageEventV1 } from "@gateway/events";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import type { Reservation } from "../credits/lease-manager.js";
import { isProviderKind, type NormalizedUsage, type UpstreamTarget } from "../providers/index.js";
import { CircuitBreaker } from "../providers/circuit-breaker.js";
import { UpstreamTransportError } from "../providers/upstream-client.js";
import { locals } from "../http/request-context.js";
import { orderDeployments } from "./weights.js";
import { guardrailOutcomes } from "../guardrails/index.js";

/**
 * The model's deployments in priority order that are configured on this replica (provider known,
 * credential present); cooled-down ones go last rather than away.
 */
export function planTargets(ctx: DataPlaneContext, model: Model): UpstreamTarget[] {
  const out: UpstreamTarget[] = [];
  for (const d of orderDeployments(model.deployments)) {
    const provider = ctx.catalog.current.providers.get(d.provider);
    if (!provider || !isProviderKind(provider.kind)) continue;
    const apiKey = provider.credential_ref ? ctx.config.resolveCredential(provider.credential_ref) : undefined;
    if (provider.credential_ref && !apiKey) continue;
    out.push({ provider, deployment: d, apiKey });
  }
  const closed = out.filter((t) => !ctx.breaker.isOpen(CircuitBreaker.key(t.provider.code, t.deployment.upstream_model)));
  return closed.length ? closed : out;
}

export function retryable(err: GatewayError | UpstreamTransportError): boolean {
  if (err instanceof UpstreamTransportError) return err.kind !== "aborted";
  return err.code === "upstream_error" || err.code === "model_unavailable" || err.code === "upstream_timeout";
}

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
 * Walks the deployments: retries the current one on retryable failures (exponential backoff with
 * full jitter, Retry-After honoured up to the cap), then falls back to the next; feeds the breaker.
 */
export class AttemptCursor<T extends { target: UpstreamTarget }> {
  index = 0;
  retries = 0;
  readonly failed: string[] = [];
  lastErr: GatewayError | UpstreamTransportError | undefined;

  constructor(private readonly ctx: DataPlaneContext, readonly attempts: T[], private readonly signal: AbortSignal) {}

  get current(): T | undefined {
    return this.signal.aborted ? undefined : this.attempts[this.index];
  }

  async failure(err: GatewayError | UpstreamTransportError): Promise<void> {
    const target = this.attempts[this.index]!.target;
    this.lastErr = err;
    this.ctx.breaker.failure(CircuitBreaker.key(target.provider.code, target.deployment.upstream_model));
    const { upstreamRetries, retryMaxMs, retryBaseMs } = this.ctx.config;
    const retryAfterMs = err instanceof GatewayError && err.context.retry_after_s !== undefined ? err.context.retry_after_s * 1000 : undefined;
    if (this.retries < upstreamRetries && !this.signal.aborted && (retryAfterMs === undefined || retryAfterMs <= retryMaxMs)) {
      this.retries++;
      const backoff = Math.random() * Math.min(retryMaxMs, retryBaseMs * 2 ** (this.retries - 1));
      await new Promise((r) => setTimeout(r, Math.max(backoff, retryAfterMs ?? 0)));
      return;
    }
    this.failed.push(target.provider.code);
    this.index++;
    this.retries = 0;
  }

  /** Response headers of the serving attempt (spec: provider, upstream model, retries, fallbacks). */
  serve(res: Response): void {
    const target = this.attempts[this.index]!.target;
    res.setHeader("x-gateway-provider", target.provider.code);
    res.setHeader("x-gateway-upstream-model", target.deployment.upstream_model);
    res.setHeader("x-gateway-retry-count", String(this.retries));
    if (this.failed.length) res.setHeader("x-gateway-attempted-fallbacks", this.failed.join(","));
    this.ctx.breaker.success(CircuitBreaker.key(target.provider.code, target.deployment.upstream_model));
  }

  /** The error to answer once every deployment failed. */
  finalError(res: Response): GatewayError {
    if (this.failed.length) res.setHeader("x-gateway-attempted-fallbacks", this.failed.join(","));
    return this.lastErr ? toGatewayError(this.lastErr) : new GatewayError("model_unavailable", "No provider could serve the request.");
  }
}

/** Publishes the usage event (durably, before the caller gets the answer) and settles the reservation. */
export async function billUsage(
  ctx: DataPlaneContext,
  res: Response,
  o: { model: Model; route: string; target: UpstreamTarget; reservation: Reservation; usage: NormalizedUsage; costMinor: number; stream: boolean; status: number; lineItems?: LineItem[] },
): Promise<void> {
  const l = locals(res);
  const event: UsageEventV1 = {
    version: 1,
    request_id: l.requestId,
    org_id: l.key!.org_id,
    key_id: l.key!.key_id,
    model: o.model.id,
    route: o.route,
    provider: o.target.provider.code,
    upstream_model: o.target.deployment.upstream_model,
    lease_id: o.reservation.leaseId,
    usage: o.usage,
    input_price_minor_per_mtok: o.model.input_price_minor_per_mtok,
    output_price_minor_per_mtok: o.model.output_price_minor_per_mtok,
    cost_minor: o.costMinor,
    line_items: o.lineItems ?? [
      { item: "input_tokens", quantity: o.usage.input_tokens, unit_price_minor: o.model.input_price_minor_per_mtok, per: "1M tokens" },
      { item: "output_tokens", quantity: o.usage.output_tokens, unit_price_minor: o.model.output_price_minor_per_mtok, per: "1M tokens" },
    ],
    guardrails: guardrailOutcomes(res),
    stream: o.stream,
    status: o.status,
    created_at_ms: l.startedAt,
    duration_ms: Math.round(Number(process.hrtime.bigint() - l.startedHr) / 1e6),
  };
  await ctx.publisher.publish(event);
  o.reservation.settle(o.costMinor);
}
