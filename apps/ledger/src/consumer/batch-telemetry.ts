import { SpanKind, endWithError, remoteParent, trace, type Link, type Span, type Tracer } from "@gateway/observability";
import type { LedgerContext } from "../context.js";
import type { Item } from "./delivery.js";

/** What an applied batch leaves in traces and metrics (UsageConsumer). */

/**
 * The span of one applied batch (a CONSUMER span, a trace of its own): linked to the span that
 * published each of its events (the event's `traceparent`), the OpenTelemetry idiom for batch
 * processing, since one transaction serves many requests' traces.
 */
export function batchSpan(tracer: Tracer, items: Item[]): Span | undefined {
  const links: Link[] = [];
  for (const i of items) {
    const parent = i.ev?.traceparent ? remoteParent(i.ev.traceparent) : undefined;
    const sc = parent && trace.getSpanContext(parent);
    if (sc) links.push({ context: sc });
  }
  // Batches of untraced events (a data-plane that does not trace) start no trace of their own.
  if (links.length === 0) return undefined;
  return tracer.startSpan("ledger.apply_usage", {
    kind: SpanKind.CONSUMER,
    links,
    attributes: { "messaging.system": "nats", "messaging.operation.type": "process", "messaging.batch.message_count": items.length },
  });
}

/**
 * Ends the batch's span and gives each traced event a span in its own request's trace (a child of
 * the publish span, linked to the batch), from the batch's start to its end, with what became of
 * the event: the request's trace shows when and how its usage was applied.
 */
export function endBatchSpan(tracer: Tracer, span: Span, startTime: number, items: Item[], err?: unknown): void {
  const batch = span.spanContext();
  for (const i of items) {
    const parent = i.ev?.traceparent ? remoteParent(i.ev.traceparent) : undefined;
    if (!parent) continue;
    const child = tracer.startSpan("ledger.usage.apply", { kind: SpanKind.CONSUMER, links: [{ context: batch }], startTime }, parent);
    if (child.isRecording()) {
      child.setAttribute("gateway.request_id", i.ev!.request_id);
      child.setAttribute("ledger.outcome", err ? "error" : (i.outcome ?? "applied"));
    }
    if (err) endWithError(child, err);
    else child.end();
  }
  if (span.isRecording()) span.setAttribute("ledger.applied", items.filter((i) => i.outcome === "applied").length);
  if (err) endWithError(span, err);
  else span.end();
}

/** The attempts of the events a batch applied (each request once), into the attempt metrics: one increment per label set and batch. */
export function countAttempts(metrics: LedgerContext["metrics"], items: readonly Item[], applied: ReadonlySet<string>): void {
  const counted = new Set<string>();
  const attempts = new Map<string, number>();
  const costs = new Map<string, number>();
  const add = (m: Map<string, number>, k: string, n: number) => m.set(k, (m.get(k) ?? 0) + n);
  for (const i of items) {
    const ev = i.ev!;
    if (!applied.has(ev.request_id) || counted.has(ev.request_id)) continue;
    counted.add(ev.request_id);
    const served = ev.served_attempt;
    if (served) {
      add(attempts, `${ev.provider}\n${served.outcome}`, 1);
      if (served.provider_cost_minor > 0) add(costs, `${ev.provider}\ncaller`, served.provider_cost_minor);
      continue;
    }
    for (const a of ev.attempts ?? []) {
      add(attempts, `${a.provider}\n${a.outcome}`, 1);
      if (a.provider_cost_minor > 0) add(costs, `${a.provider}\n${a.payer}`, a.provider_cost_minor);
    }
  }
  for (const [k, n] of attempts) {
    const [provider, outcome] = k.split("\n") as [string, string];
    metrics.attempts.inc({ provider, outcome }, n);
  }
  for (const [k, n] of costs) {
    const [provider, payer] = k.split("\n") as [string, string];
    metrics.attemptCost.inc({ provider, payer }, n);
  }
}
