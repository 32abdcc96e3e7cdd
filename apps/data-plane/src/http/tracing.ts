import type { NextFunction, Request, Response } from "express";
import { ROOT_CONTEXT, SpanKind, SpanStatusCode, context, endWithError, httpHeaderGetter, trace, type Context, type Span, type Tracer, type Tracing } from "@gateway/observability";
import { requestOf, type RequestContext } from "./request-context.js";

/** A traced request: its SERVER span and the context its stages' spans are children of. */
export interface RequestTrace {
  tracer: Tracer;
  span: Span;
  ctx: Context;
  /**
   * The request is sampled. A request that is not still runs in its (non-recording) span's context,
   * so gRPC calls pass the caller's "not sampled" on, but its stages and attempts make no spans.
   */
  recording: boolean;
}

/**
 * The first middleware when the data-plane traces (never installed otherwise): continues the
 * caller's trace when the request carries a W3C `traceparent` (a new trace otherwise) in a SERVER
 * span named after the route, and runs the rest of the request in its context. The request id is
 * on the span (gateway.request_id), so a trace is found from the x-request-id a caller reports.
 */
export function traceRequests(tracing: Tracing) {
  const { tracer, propagator } = tracing;
  return (req: Request, res: Response, next: NextFunction): void => {
    const l = requestOf(res);
    const parent = propagator.extract(ROOT_CONTEXT, req.headers, httpHeaderGetter);
    const span = tracer.startSpan(req.method, { kind: SpanKind.SERVER }, parent);
    if (span.isRecording()) {
      span.setAttribute("http.request.method", req.method);
      span.setAttribute("url.path", req.path);
      span.setAttribute("gateway.request_id", l.requestId);
    }
    const ctx = trace.setSpan(parent, span);
    l.trace = { tracer, span, ctx, recording: span.isRecording() };
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      if (span.isRecording()) {
        const route = req.route?.path ? String(req.route.path) : undefined;
        if (route) {
          span.updateName(`${req.method} ${route}`);
          span.setAttribute("http.route", route);
        }
        span.setAttribute("http.response.status_code", res.statusCode);
        if (l.key) {
          span.setAttribute("gateway.org_id", l.key.org_id);
          span.setAttribute("gateway.key_id", l.key.key_id);
        }
        if (l.model) span.setAttribute("gen_ai.request.model", l.model);
        if (!res.writableFinished) span.setAttribute("gateway.client_gone", true);
        if (res.statusCode >= 500) {
          span.setAttribute("error.type", String(res.statusCode));
          span.setStatus({ code: SpanStatusCode.ERROR });
        }
      }
      span.end();
    };
    res.on("finish", end);
    res.on("close", end);
    context.with(ctx, next);
  };
}

/**
 * The context a stage's span hangs from: the active one when it belongs to this request's trace
 * (a stage inside a stage), the request's otherwise (callbacks of pooled I/O may run in another
 * request's context, or none).
 */
function parentOf(t: RequestTrace): Context {
  const active = context.active();
  const span = trace.getSpan(active);
  return span && span.spanContext().traceId === t.span.spanContext().traceId ? active : t.ctx;
}

/** Runs `fn` in the request's context (a handler after the body parser, whose callbacks lost it). */
export function inRequestContext<T>(rq: RequestContext, fn: () => T): T {
  const t = rq.trace;
  return t ? context.with(parentOf(t), fn) : fn();
}

/** A child span of the request's current stage, or undefined when the request is not traced or not sampled. */
export function startSpan(rq: RequestContext, name: string, kind: SpanKind = SpanKind.INTERNAL): Span | undefined {
  const t = rq.trace;
  return t?.recording ? t.tracer.startSpan(name, { kind }, parentOf(t)) : undefined;
}

/** Runs `fn` with `span` active (its children and outgoing calls hang from it). */
export function withSpan<T>(span: Span, fn: () => T): T {
  return context.with(trace.setSpan(context.active(), span), fn);
}

/**
 * One pipeline stage in a span `gateway.<name>` (ended when `fn` returns or its promise settles,
 * failed when it throws); just `fn()` when the request is not traced or not sampled.
 */
export function stage<T>(rq: RequestContext, name: string, fn: () => T): T {
  const t = rq.trace;
  if (!t?.recording) return fn();
  const parent = parentOf(t);
  const span = t.tracer.startSpan(`gateway.${name}`, undefined, parent);
  let out: T;
  try {
    out = context.with(trace.setSpan(parent, span), fn);
  } catch (err) {
    endWithError(span, err);
    throw err;
  }
  if (out instanceof Promise) {
    return out.then(
      (v: unknown) => {
        span.end();
        return v;
      },
      (err: unknown) => {
        endWithError(span, err);
        throw err;
      },
    ) as T;
  }
  span.end();
  return out;
}
