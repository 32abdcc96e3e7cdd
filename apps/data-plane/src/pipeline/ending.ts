import type { Response } from "express";
import type { DataPlaneContext } from "../context.js";
import type { RouteKind } from "../catalog/visibility.js";
import { runStage } from "../guardrails/index.js";
import { writeGatewayHeaders } from "../http/headers.js";
import type { Authenticated, RequestContext } from "../http/request-context.js";
import { GatewayError } from "@gateway/errors";
import type { ApiRoute } from "@gateway/proto";
import { utf8 } from "../http/utf8.js";
import type { Capability } from "../providers/index.js";
import { billFailure, billUsage, failureStatus, recordDenial, type Charge, type EndedEarly } from "./bill.js";
import { refusalOf } from "../usage/refusals.js";
import type { UsageEventV1 } from "@gateway/events";
import type { Call, EndedCall, Served, ServedAnswer, ServedCall, ServedStream } from "./route.js";
import { relay } from "./stream.js";

/** Publishes the usage event (durable before anything more is sent) and settles the hold. */
type Bill = (charge: Charge, status: number, ended?: EndedEarly) => Promise<void>;

/**
 * The one ending of every model route, after its attempts served something: the only place that
 * bills, picks the status, writes the headers and sends the answer. Work the provider did is billed
 * whether or not anyone is left to read it: a client that left is billed with status 499 (an answer)
 * or for what was delivered (a stream), and sent nothing.
 */
export async function end<B, C extends Capability>(ctx: DataPlaneContext, route: RouteKind, call: Call<B, C>, served: Served): Promise<void> {
  const { res, state, model, reservation } = call;
  if (served.kind === "unbilled") {
    if (served.absorbed) await billFailure(ctx, state, { model, route, reservation, worst: call.worst, status: 200 });
    if (call.client.aborted) return;
    return send(res, state, JSON.stringify(served.body));
  }
  const stream = served.kind !== "answer";
  const { target } = served;
  const bill: Bill = (charge, status, ended) => billUsage(ctx, state, { model, route, target, reservation, charge, stream, status, ended });
  if (served.kind === "gone") {
    // Stopped before its first frame because its credit ran out: billed, and the refusal is the answer.
    if (served.refusal) {
      await bill(served.charge, served.refusal.httpStatus, "cut");
      throw served.refusal;
    }
    // Nobody to answer, and nothing reached them: billed with status 499.
    return bill(served.charge, 499, "client_gone");
  }
  if (served.kind === "stream") return relayStream(call, served, bill, ctx.shutdown);
  const json = await answer(ctx, route, state, call.client, served, bill, JSON.stringify);
  if (json !== undefined) send(res, state, json);
}

/**
 * The ending of a tool call (an MCP `tools/call`, one call of a JSON-RPC batch, pipeline/route.ts
 * `runCall`), the same as a model route's answer: output guardrails, the record durable before
 * the answer is released (billing the call exactly once under its id), the hold settled, a caller
 * who left billed with status 499. A call that was sent and failed (no answer in time, one past the
 * read bound) is billed as sent, with its error's status; one never sent, at 0. The answer is
 * returned for the batch's reply, or the failure thrown.
 */
export async function endCall(ctx: DataPlaneContext, route: ApiRoute, state: Authenticated, call: EndedCall, served: ServedCall): Promise<unknown> {
  const bill: Bill = (charge, status) => billUsage(ctx, state, { model: call.billedAs, route, reservation: call.reservation, charge, stream: false, status });
  try {
    if (served.kind === "failed") {
      await bill(served.charge, call.client.aborted && served.charge.costMinor > 0 ? 499 : failureStatus(served.err));
      throw served.err;
    }
    return await answer(ctx, route, state, call.client, served, bill, (out) => out);
  } catch (err) {
    if (served.kind === "failed" ? err === served.err : err instanceof GatewayError) throw err;
    // Unrecorded, so unbilled: the answer is not released (docs/billing.md: never an answer without its bill).
    ctx.log.error({ err, request_id: state.requestId }, "a tool call could not be recorded");
    throw new GatewayError("service_unavailable", "The gateway could not record this call; it was not billed. Retry.", { retry_after_s: 1 });
  }
}

/**
 * The ending of a request refused before anything was held or sent (validation or admission, a
 * route's or a tool call's; the runner's error answers it): an input guardrail's denial is recorded
 * with its rules' outcomes before the 400 (pipeline/bill.ts recordDenial; `denied`: what a tool call
 * refused, at quantity 0); any other 4xx but a 429 leaves a refusal record (usage/refusals.ts):
 * sent without waiting, rate-limited per key, dropped rather than spooled. Nothing else is recorded:
 * a 429 (rate limits are counted, and their callers are the likeliest to repeat), a 5xx (the
 * gateway's own failure), a client that left.
 */
export async function endRefused(ctx: DataPlaneContext, route: ApiRoute, state: Authenticated, err: unknown, body: unknown, denied?: () => UsageEventV1["line_items"]): Promise<void> {
  if (err instanceof GatewayError && err.code === "guardrail_denied") return recordDenial(ctx, state, route, denied?.());
  const refusal = refusalOf(err);
  if (refusal) void ctx.refusals.record(state, route, refusal, body);
}

function send(res: Response, rq: RequestContext, json: string): void {
  writeGatewayHeaders(res, rq);
  res.statusCode = 200;
  res.setHeader("content-type", "application/json; charset=utf-8");
  res.end(utf8(json));
}

/**
 * An answer: billed (status 499 when nobody is left to get it), checked by the output guardrails, and
 * `deliver`ed (serialized, for HTTP) while its usage event travels; undefined when the client left.
 */
async function answer<T>(
  ctx: DataPlaneContext,
  route: ApiRoute,
  state: Authenticated,
  client: AbortSignal,
  served: Pick<ServedAnswer, "charge" | "texts" | "render" | "keep">,
  bill: Bill,
  deliver: (out: unknown) => T,
): Promise<T | undefined> {
  const { charge } = served;
  if (client.aborted) {
    // Nobody to answer, but the provider did the work: bill it.
    await bill(charge, 499);
    return undefined;
  }
  // Output guardrails: a denial still bills the work the model did (docs/guardrails.md).
  let denied: unknown;
  let render = served.render;
  if (served.texts) {
    try {
      const ran = runStage(ctx, state, route, "output", served.texts);
      const masked = ran instanceof Promise ? await ran : ran;
      if (masked) render = masked;
    } catch (err) {
      denied = err;
    }
  }
  // Durable before the caller sees the answer: a response is never unbilled. The answer is
  // serialized while the usage event travels to JetStream (one microtask lets it reach the socket).
  const billed = bill(charge, denied ? 400 : 200);
  if (denied) {
    await billed;
    throw denied;
  }
  await undefined;
  const out = render();
  if (served.keep) {
    // Stored before it is released too, so an immediate GET or continuation finds it.
    await Promise.all([billed, served.keep(out)]);
    return deliver(out);
  }
  const delivered = deliver(out);
  await billed;
  return delivered;
}

async function relayStream<B, C extends Capability>(call: Call<B, C>, served: ServedStream, bill: Bill, shutdown: AbortSignal | undefined): Promise<void> {
  const { res, state, client } = call;
  const { stream: s } = served;
  if (s.pending.empty && s.ending?.denied && !client.aborted) {
    // The model produced text a window-mode rule refuses before anything was sent: billed, 400.
    s.abandon();
    await bill(served.charge(), 400);
    throw s.ending.denied;
  }
  // A client that left before the first frame gets nothing; the stream is still drained and billed (499).
  const answered = !client.aborted;
  if (answered) {
    writeGatewayHeaders(res, state);
    res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" });
  }
  const { failure, denied } = await relay(res, s, client, shutdown);
  const charge = served.charge();
  // A complete answer is stored (when the shape keeps answers) before its last frames say so.
  const kept = !denied && !failure && !client.aborted ? s.writer.keep?.(charge.usage) : undefined;
  await bill(charge, !answered ? 499 : denied ? 400 : 200, client.aborted ? "client_gone" : failure ? "cut" : undefined);
  await kept;
  if (client.aborted) return;
  const { requestId } = state;
  // The frames read with the end (the last text, the usage chunk) and the last frame: one write.
  res.end(s.pending.take(denied ? s.writer.error(denied, requestId) : failure ? s.writer.error(failure, requestId) : s.writer.end(charge.usage)));
}
