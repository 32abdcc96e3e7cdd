import type { Response } from "express";
import type { LineItem, UsageEventV1 } from "@gateway/events";
import type { Model } from "@gateway/proto";
import { SpanKind, endWithError, traceparentOf } from "@gateway/observability";
import type { DataPlaneContext } from "../context.js";
import { usageLineItems } from "../credits/cost.js";
import type { Reservation } from "../credits/lease-manager.js";
import { guardrailOutcomes } from "../guardrails/index.js";
import { locals } from "../http/request-context.js";
import { startSpan } from "../http/tracing.js";
import type { NormalizedUsage, UpstreamTarget } from "../providers/index.js";

/** What the provider did, as it is billed: the usage, its cost (minor credit units) and the line items when not tokens. */
export interface Charge {
  usage: NormalizedUsage;
  costMinor: number;
  lineItems?: LineItem[];
}

/** Publishes the usage event (durably, before the caller gets the answer) and settles the reservation. */
export async function billUsage(
  ctx: DataPlaneContext,
  res: Response,
  o: { model: Model; route: string; target: UpstreamTarget; reservation: Reservation; charge: Charge; stream: boolean; status: number },
): Promise<void> {
  const l = locals(res);
  const { usage, costMinor, lineItems } = o.charge;
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
    usage: {
      input_tokens: usage.input_tokens,
      output_tokens: usage.output_tokens,
      cached_input_tokens: usage.cached_input_tokens,
      cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
      reasoning_tokens: usage.reasoning_tokens ?? 0,
      estimated: usage.estimated,
    },
    input_price_minor_per_mtok: o.model.input_price_minor_per_mtok,
    output_price_minor_per_mtok: o.model.output_price_minor_per_mtok,
    cost_minor: costMinor,
    // Token items are the ones costMinor priced (every token once, at one price).
    line_items: lineItems ?? usageLineItems(usage, o.model),
    guardrails: guardrailOutcomes(res),
    stream: o.stream,
    status: o.status,
    created_at_ms: l.startedAt,
    duration_ms: Math.round(Number(process.hrtime.bigint() - l.startedHr) / 1e6),
  };
  const publishedAt = performance.now();
  if (l.trace?.recording) await publishTraced(ctx, res, event);
  else await ctx.publisher.publish(event);
  l.usageMs = performance.now() - publishedAt;
  o.reservation.settle(costMinor);
  if (usage.input_tokens + usage.output_tokens > 0) ctx.rateLimiter.addTokens(l.key!.key_id, usage.input_tokens + usage.output_tokens);
}

/**
 * The usage publish in a PRODUCER span whose `traceparent` rides in the event (several events share
 * one message), so the ledger's apply links back to this request's trace.
 */
async function publishTraced(ctx: DataPlaneContext, res: Response, event: UsageEventV1): Promise<void> {
  const span = startSpan(res, "gateway.usage.publish", SpanKind.PRODUCER)!;
  span.setAttribute("messaging.system", "nats");
  span.setAttribute("gateway.request_id", event.request_id);
  event.traceparent = traceparentOf(span);
  try {
    await ctx.publisher.publish(event);
    span.end();
  } catch (err) {
    endWithError(span, err);
    throw err;
  }
}
