import { GatewayError } from "@gateway/errors";
import type { AttemptV1, UsageEventV1 } from "@gateway/events";
import type { Model } from "@gateway/proto";
import { SpanKind, endWithError, traceparentOf } from "@gateway/observability";
import type { DataPlaneContext } from "../context.js";
import { lineItemsCostMinor, providerPrices, usageLineItems } from "@gateway/pricing";
import type { Reservation } from "../credits/lease-manager.js";
import { guardrailOutcomes } from "../guardrails/index.js";
import type { Authenticated } from "../http/request-context.js";
import { startSpan } from "../http/tracing.js";
import type { NormalizedUsage, UpstreamTarget } from "../providers/index.js";
import { ClientGoneError, type Charge, type WorstCase } from "./attempts.js";
import { deploymentKey } from "../routing/session-key.js";

export type { Charge } from "./attempts.js";

/** How the served attempt ended when not simply served: the caller left (billed what the provider did), or the provider cut a stream. */
export type EndedEarly = "client_gone" | "cut";

/**
 * What a tool call is billed as (pipeline/route.ts `runCall`): its record names `server/tool` as the
 * model and the server as the provider, and its charge is its line items alone (no token prices).
 */
export interface BilledCall {
  id: string;
  provider: string;
  upstreamModel: string;
}

type Billed = { model: Model; target: UpstreamTarget } | { model: BilledCall; target?: undefined };

/** Publishes the usage event (durably, before the caller gets the answer) and settles the reservation. */
export async function billUsage(
  ctx: DataPlaneContext,
  l: Authenticated,
  o: Billed & { route: string; reservation: Reservation; charge: Charge; stream: boolean; status: number; ended?: EndedEarly },
): Promise<void> {
  const { usage, costMinor } = o.charge;
  // A call's charge is its line items; a model's, its token items when the route did not price it otherwise.
  const lineItems = o.target ? (o.charge.lineItems ?? usageLineItems(usage, o.model)) : (o.charge.lineItems ?? []);
  const attempts = l.served?.attempts ?? [];
  // The attempt that served (the last): what the provider did, billed to the caller.
  const last = attempts[attempts.length - 1];
  if (last?.outcome === "served") {
    last.outcome = o.ended ?? (o.status === 499 ? "client_gone" : "served");
    last.input_tokens = usage.input_tokens;
    last.output_tokens = usage.output_tokens;
    last.estimated = usage.estimated;
    last.cost_minor = costMinor;
    last.provider_cost_minor = o.charge.lineItems || !o.target ? costMinor : providerCost(usage, costMinor, o.model, o.target);
    last.payer = "caller";
    // The provider's whole split and tier, for reconciling with its bill (docs/billing.md, "Reconciliation").
    last.cached_input_tokens = usage.cached_input_tokens;
    last.cache_creation_input_tokens = usage.cache_creation_input_tokens ?? 0;
    last.reasoning_tokens = usage.reasoning_tokens ?? 0;
    if (usage.service_tier) last.service_tier = usage.service_tier;
  }
  // One attempt billed as the event says: sent as what the event does not say (served_attempt).
  const single = attempts.length === 1 && last!.payer === "caller" && last!.status === 200;
  const prices = o.target ? o.model : { id: o.model.id, input_price_minor_per_mtok: 0, output_price_minor_per_mtok: 0 };
  const event = usageEvent(l, {
    ...o,
    model: prices,
    provider: o.target ? undefined : o.model.provider,
    upstreamModel: o.target ? undefined : o.model.upstreamModel,
    attempts: single ? [] : attempts,
  });
  if (single) event.served_attempt = { outcome: last!.outcome, duration_ms: last!.duration_ms, provider_cost_minor: last!.provider_cost_minor };
  event.usage = {
    input_tokens: usage.input_tokens,
    output_tokens: usage.output_tokens,
    cached_input_tokens: usage.cached_input_tokens,
    cache_creation_input_tokens: usage.cache_creation_input_tokens ?? 0,
    reasoning_tokens: usage.reasoning_tokens ?? 0,
    estimated: usage.estimated,
    basis: usage.basis ?? (usage.estimated ? "estimated" : "reported"),
  };
  if (usage.service_tier) event.service_tier = usage.service_tier;
  event.cost_minor = costMinor;
  // Token items are the ones costMinor priced (every token once, at one price).
  event.line_items = lineItems;
  event.guardrails = guardrailOutcomes(l);
  // The session's turn was served: its pin follows the deployment that served it (the provider cached the prompt there).
  const session = l.session;
  if (session && o.target && ctx.pins) {
    event.route_pin = ctx.pins.served(session.key, session.pinned, deploymentKey(o.target.provider.code, o.target.deployment.upstream_model), session.ttlMs);
  }
  const publishedAt = performance.now();
  await publishUsage(ctx, l, event);
  l.usageMs = performance.now() - publishedAt;
  l.billedMinor = costMinor;
  o.reservation.settle(costMinor);
  if (usage.input_tokens + usage.output_tokens > 0) ctx.rateLimiter.addTokens(l.key.key_id, usage.input_tokens + usage.output_tokens);
}

/** The provider's charge to the operator for the served attempt: at the deployment's cost prices, or the catalog's. */
function providerCost(usage: NormalizedUsage, costMinor: number, model: Model, target: UpstreamTarget): number {
  const prices = providerPrices(model, target.deployment);
  return prices === model ? costMinor : lineItemsCostMinor(usageLineItems(usage, prices));
}

/**
 * A request that served nothing: its attempts are recorded in a usage event of cost 0 and the
 * error's status (none when no attempt was made). An attempt that served but whose request failed
 * after it (a video job that could not be stored), or whose work nobody is billed for (a video
 * create that lost an Idempotency-Key race, answered with the winner's job: `status` 200), is the
 * operator's, at its worst case. Nothing was billed, so the answer goes out whether or not the event
 * could be recorded.
 */
export async function billFailure(
  ctx: DataPlaneContext,
  l: Authenticated,
  o: { model: Model; route: string; reservation: Reservation; worst: WorstCase; err?: unknown; status?: number },
): Promise<void> {
  const served = l.served;
  if (!served?.attempts.length) return;
  const last = served.attempts[served.attempts.length - 1]!;
  if (last.outcome === "served") {
    // At the catalog's price: the record keeps no deployment to price it at cost.
    Object.assign(last, {
      input_tokens: o.worst.input_tokens,
      output_tokens: o.worst.output_tokens,
      estimated: true,
      cost_minor: o.worst.cost_minor,
      provider_cost_minor: o.worst.cost_minor,
      payer: "operator",
    });
  }
  const status = o.status ?? failureStatus(o.err);
  const event = usageEvent(l, {
    model: o.model,
    route: o.route,
    provider: last.provider,
    upstreamModel: last.upstream_model,
    reservation: o.reservation,
    stream: false,
    status,
    attempts: served.attempts,
  });
  event.guardrails = guardrailOutcomes(l);
  try {
    await ctx.publisher.publish(event);
  } catch (err) {
    ctx.log.warn({ err, request_id: l.requestId }, "the attempts of a failed request could not be recorded");
  }
}

/**
 * The status a failed request or call is recorded with: 499 when the client left, a gateway error's
 * own (or an upstream's error that states one), 500 otherwise.
 */
export function failureStatus(err: unknown): number {
  if (err instanceof ClientGoneError) return 499;
  if (err instanceof GatewayError) return err.httpStatus;
  const stated = (err as { httpStatus?: unknown } | undefined)?.httpStatus;
  return typeof stated === "number" ? stated : 500;
}

/**
 * A request an input guardrail denied, before anything was held or sent: recorded with cost 0, the
 * 400 and the rules' outcomes, no provider and no attempt, so an organization can look the denial up
 * by its trace id and find it in its usage like any request (docs/guardrails.md); `lineItems`: what
 * was refused (a tool call's server, tool and arguments' hash), at quantity 0. Nothing was
 * billed, so the 400 is answered whether or not the record could be made (publishDenial).
 */
export async function recordDenial(ctx: DataPlaneContext, l: Authenticated, route: string, lineItems: UsageEventV1["line_items"] = []): Promise<void> {
  const event = usageEvent(l, {
    model: { id: l.model ?? "", input_price_minor_per_mtok: 0, output_price_minor_per_mtok: 0 },
    route,
    reservation: { leaseId: "" },
    stream: false,
    status: 400,
    attempts: [],
  });
  event.line_items = lineItems;
  event.guardrails = guardrailOutcomes(l);
  await publishDenial(ctx, event);
}

/**
 * Publishes the record of a guardrail denial (nothing billed), unless the spool holds usage events
 * (NATS is away): the spool is kept for what was billed, so a caller repeating a denied request
 * cannot fill it and turn paid work away. Such a denial is still counted in
 * gateway_guardrail_outcomes_total, and answered either way.
 */
export async function publishDenial(ctx: DataPlaneContext, event: UsageEventV1): Promise<void> {
  if (ctx.publisher.spooled > 0) return;
  try {
    await ctx.publisher.publish(event);
  } catch (err) {
    ctx.log.warn({ err, request_id: event.request_id }, "a guardrail denial could not be recorded");
  }
}

/** A usage event with nothing billed yet: the request, the deployment, the attempts. */
function usageEvent(
  l: Authenticated,
  o: {
    model: Pick<Model, "id" | "input_price_minor_per_mtok" | "output_price_minor_per_mtok">;
    route: string;
    target?: UpstreamTarget;
    provider?: string;
    upstreamModel?: string;
    reservation: Pick<Reservation, "leaseId" | "budgetLeaseIds">;
    stream: boolean;
    status: number;
    attempts: AttemptV1[];
  },
): UsageEventV1 {
  const a = l.attribution;
  const budgets = o.reservation.budgetLeaseIds;
  return {
    version: 1,
    request_id: l.requestId,
    org_id: l.key.org_id,
    key_id: l.key.key_id,
    model: o.model.id,
    route: o.route,
    provider: o.target?.provider.code ?? o.provider ?? "",
    upstream_model: o.target?.deployment.upstream_model ?? o.upstreamModel ?? "",
    lease_id: o.reservation.leaseId,
    ...(l.catalogVersion !== undefined ? { catalog_version: l.catalogVersion } : {}),
    ...(budgets && budgets.length > 0 ? { budget_leases: [...budgets] } : {}),
    ...(a?.endUser ? { end_user: a.endUser } : {}),
    ...(a?.projectId ? { project_id: a.projectId } : {}),
    ...(a?.tags ? { tags: a.tags } : {}),
    usage: { input_tokens: 0, output_tokens: 0, cached_input_tokens: 0, cache_creation_input_tokens: 0, reasoning_tokens: 0, estimated: false },
    input_price_minor_per_mtok: o.model.input_price_minor_per_mtok,
    output_price_minor_per_mtok: o.model.output_price_minor_per_mtok,
    cost_minor: 0,
    line_items: [],
    attempts: o.attempts,
    guardrails: [],
    stream: o.stream,
    status: o.status,
    created_at_ms: l.startedAt,
    duration_ms: Math.round(Number(process.hrtime.bigint() - l.startedHr) / 1e6),
  };
}

/**
 * Publishes a billed request's usage event (durable, or on the spool), in its trace when the request
 * is traced (publishTraced).
 */
export async function publishUsage(ctx: DataPlaneContext, rq: Authenticated, event: UsageEventV1): Promise<void> {
  if (rq.trace?.recording) await publishTraced(ctx, rq, event);
  else await ctx.publisher.publish(event);
}

/**
 * The usage publish in a PRODUCER span whose `traceparent` rides in the event (several events share
 * one message), so the ledger's apply links back to this request's trace.
 */
async function publishTraced(ctx: DataPlaneContext, rq: Authenticated, event: UsageEventV1): Promise<void> {
  const span = startSpan(rq, "gateway.usage.publish", SpanKind.PRODUCER)!;
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
