import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { costMinor, estimateCharTokens } from "@gateway/pricing";
import { streamOutputChecker } from "../guardrails/index.js";
import type { NormalizedUsage } from "../providers/index.js";
import { NEVER_ABORTED, UpstreamTransportError, type UpstreamResponse } from "../providers/upstream-client.js";
import type { Routed } from "../translate/pairs/index.js";
import { collectingWriter } from "../translate/client-shape.js";
import { ClientGoneError, attemptAll, upstreamFailure } from "./attempts.js";
import { HiddenTime } from "./hidden-time.js";
import type { Charge } from "./bill.js";
import type { Call, Served } from "./route.js";
import type { Bound } from "../admission/admit.js";
import { OpenedStream, drainSignal } from "./stream.js";
import { TrancheWatch, producedMinor } from "./tranches.js";

/** A chat-like request (chat completions, Messages, Responses) translated for its deployments. */
interface ChatServing {
  routes: Routed[];
  stream: boolean;
}

/** What is known of a stream (or an answer) that may have ended without the provider's usage report. */
export interface Ending {
  /** The provider's final usage, when it came. */
  usage: NormalizedUsage | undefined;
  /** What the provider reported before its final usage (a stream's input and cache counts from its start). */
  reported?: NormalizedUsage;
  /** Characters generated, counted when there is no usage. */
  generated: number;
  /** A stream: it may have reasoned unseen (an answer's usage, when missing, is counted from what it holds). */
  stream: boolean;
  /** Milliseconds the provider may have spent reasoning unseen (pipeline/hidden-time.ts). */
  hiddenMs?: number;
  /** Server-side searches seen run in the stream. */
  searches?: number;
  /** The usage was read after the client left. */
  drained?: boolean;
}

/**
 * Hidden reasoning a stream cut short is billed for: none on a model the catalog does not mark as
 * reasoning, or when the provider already reported its reasoning count; else the model's output rate
 * (`max_output_tokens_per_second`, a conservative upper bound) × the time the provider may have
 * reasoned unseen, within the output limit less what was seen. A reasoning model that declares no
 * rate is billed the output limit less what was seen (the hold's own bound). `bounded`: by the rate.
 */
export function hiddenReasoning(model: Model, bound: Bound, seen: number, e: Ending): { tokens: number; bounded: boolean } {
  if (!e.stream || !model.reasoning || (e.reported?.reasoning_tokens ?? 0) > 0) return { tokens: 0, bounded: false };
  const room = Math.max(0, bound.output - seen);
  const rate = model.max_output_tokens_per_second ?? 0;
  if (rate <= 0) return { tokens: room, bounded: false };
  return { tokens: Math.min(room, Math.ceil((rate * (e.hiddenMs ?? 0)) / 1000)), bounded: true };
}

/**
 * The charge for usage: the provider's (`drained` when read after the client left). When it reported
 * none (a stream the client left past the drain window, or the provider cut), at least what the
 * provider would bill for what it did: what it had reported so far (a stream's input and cache counts
 * from its start), else the prompt estimated from the body with every image at the catalog's maximum
 * per image; the generated text, counted; the searches seen run; and on a reasoning model, the
 * reasoning it may have done unseen, bounded by its output rate × the time (docs/billing.md,
 * "Streams that end without usage").
 */
export function chargeOf(model: Model, bodyBytes: number, bound: Bound, e: Ending): Charge {
  if (e.usage) {
    const usage = e.drained ? { ...e.usage, basis: "drained" as const } : e.usage;
    return { usage, costMinor: costMinor(usage, model) };
  }
  const { reported } = e;
  const seen = Math.max(reported?.output_tokens ?? 0, estimateCharTokens(e.generated));
  const hidden = hiddenReasoning(model, bound, seen, e);
  // The body's bytes include media payloads the hold counted per part: never more than the prompt bound held.
  const estimated = Math.ceil(bodyBytes / 4) + (bound.images ?? 0);
  const input = reported ?? { input_tokens: bound.prompt > 0 ? Math.min(estimated, bound.prompt) : estimated, cached_input_tokens: 0 };
  const searches = Math.max(reported?.web_search_requests ?? 0, e.searches ?? 0);
  const u: NormalizedUsage = {
    ...input,
    output_tokens: seen + hidden.tokens,
    ...(hidden.tokens > 0 ? { reasoning_tokens: hidden.tokens } : {}),
    ...(searches > 0 ? { web_search_requests: searches } : {}),
    estimated: true,
    basis: hidden.bounded ? "bounded" : "estimated",
  };
  return { usage: u, costMinor: costMinor(u, model) };
}

/**
 * A chat-like request over the attempt loop, in the client's shape. A stream is served once the
 * upstream's first client frame is ready, so a failed first attempt still falls back; the runner
 * relays the rest (pipeline/ending.ts). A non-streaming answer is charged by the provider whether
 * or not the client waits for it: the attempt in flight runs to its end (no new attempt starts once
 * the client left).
 */
export async function serveChat<B>(ctx: DataPlaneContext, call: Call<B, "chat">, s: ChatServing): Promise<Served> {
  const { model, client, timeoutMs } = call;
  // The decoded body size, for the prompt estimate when a provider reports no usage.
  const bodyBytes = call.state.bodyBytes ?? 0;
  if (s.stream) {
    const now = ctx.now ?? performance.now.bind(performance);
    const { planned, value: stream } = await attemptAll(ctx, call, s.routes, async ({ target, translation: t }) => {
      const hidden = new HiddenTime(now);
      // Held in tranches: the watch extends the hold as the provider produces, and a refusal cuts the
      // stream (opened) or the request (before its first frame) through `cut`.
      const cut = call.tranche ? new AbortController() : undefined;
      let opened: OpenedStream | undefined;
      const watch = call.tranche ? trancheWatch(ctx, call, () => opened, hidden, cut!) : undefined;
      // The provider's stream is read on for a while after the client leaves, for its own usage report.
      const drain = drainSignal(client, ctx.config.clientGoneDrainMs);
      const upstream = cut ? AbortSignal.any([drain, cut.signal]) : drain;
      // What the provider did before a refused extension stopped it, billed with the refusal (402).
      const stopped = () => {
        hidden.stop();
        watch?.end();
        const e: Ending = { usage: opened?.usage, reported: opened?.reported, generated: opened?.generated ?? 0, stream: true, hiddenMs: hidden.ms() };
        return new ClientGoneError({ target, charge: chargeOf(model, bodyBytes, call.bound, e) }, watch?.refused);
      };
      let up: UpstreamResponse;
      try {
        ({ res: up } = await ctx.upstream.send(target.provider, t.request(target), timeoutMs, upstream));
      } catch (err) {
        if (cut?.signal.aborted) throw stopped();
        watch?.end();
        // The client left and the drain window passed before the provider answered: it had the
        // request all that time, so its prompt and what it may have reasoned meanwhile are billed.
        if (client.aborted && err instanceof UpstreamTransportError && err.kind === "aborted" && err.sent) {
          hidden.stop();
          throw new ClientGoneError({ target, charge: chargeOf(model, bodyBytes, call.bound, { usage: undefined, generated: 0, stream: true, hiddenMs: hidden.ms() }) });
        }
        throw err;
      }
      try {
        opened = await openStream(up, t, target, hidden, call, upstream, client);
      } catch (err) {
        if (cut?.signal.aborted) throw stopped();
        watch?.end();
        throw err;
      }
      if (watch) opened.tranches = watch;
      return opened;
    });
    if (planned.translation.dropped.length) call.state.dropped = planned.translation.dropped;
    const charge = () =>
      chargeOf(model, bodyBytes, call.bound, {
        usage: stream.usage,
        reported: stream.reported,
        generated: stream.generated,
        stream: true,
        hiddenMs: stream.hidden.ms(),
        searches: stream.searches,
        drained: stream.drained,
      });
    return { kind: "stream", target: planned.target, stream, charge };
  }
  if (call.collected) return serveCollected(ctx, call, s.routes);
  const { planned, value: parsed } = await attemptAll(ctx, call, s.routes, async ({ target, translation: t }) => {
    const { res: up } = await ctx.upstream.send(target.provider, t.request(target), timeoutMs, NEVER_ABORTED);
    if (up.status !== 200) throw await upstreamFailure(up, t.mapError.bind(t));
    let json: unknown;
    try {
      json = await up.body.json();
    } catch {
      throw new GatewayError("upstream_error", "The provider returned an invalid response.");
    }
    return t.parse(json);
  });
  const { target, translation: t } = planned;
  if (t.dropped.length) call.state.dropped = t.dropped;
  const { body } = parsed;
  const charge = parsed.usage
    ? chargeOf(model, bodyBytes, call.bound, { usage: parsed.usage, generated: 0, stream: false })
    : chargeOf(model, bodyBytes, call.bound, { usage: undefined, generated: JSON.stringify(body.choices ?? body.content ?? body.output ?? "").length, stream: false });
  return answered(t, target, body, charge);
}

/** A provider's whole answer (`body`, as the translation parsed it) and its charge, served as the client's answer. */
function answered(t: Routed["translation"], target: Routed["target"], body: Record<string, unknown>, charge: Charge): Served {
  const keep = t.shape.keep;
  return {
    kind: "answer",
    target,
    charge,
    texts: () => t.answerTexts(body).map((masked) => () => t.shape.body(masked, charge.usage)),
    render: () => t.shape.body(body, charge.usage),
    ...(keep ? { keep } : {}),
  };
}

/**
 * A request whose client wants a whole answer, held in tranches (admission sent it streamed:
 * `call.collected`, docs/billing.md "Holds in tranches"). Each attempt reads the provider's stream
 * to its end, nothing written, while its tranche watch extends the hold ahead of what the provider
 * may have produced; the answer is the one the provider's JSON would have given (the adapter's
 * collector), ended as any answer is (output guardrails on the whole of it, the record durable
 * before it). As for any whole answer, the attempt in flight runs to its end when the client leaves.
 *
 * - A refused extension, once the provider may have used what is held, cancels the upstream call:
 *   nothing partial is answered, the client gets the refusal (402) and what the provider did is
 *   billed as a stream cut short is (the runner's `gone` ending, outcome `cut`).
 * - A failure before the stream completed (an error status, a broken or invalid stream) fails the
 *   attempt as a broken JSON answer does: retried or the next deployment tried (attemptAll), the
 *   caller billed nothing for it.
 */
async function serveCollected<B>(ctx: DataPlaneContext, call: Call<B, "chat">, routes: Routed[]): Promise<Served> {
  const { model, timeoutMs } = call;
  const bodyBytes = call.state.bodyBytes ?? 0;
  const now = ctx.now ?? performance.now.bind(performance);
  const { planned, value } = await attemptAll(ctx, call, routes, async ({ target, translation: t }) => {
    const collector = t.collector(target);
    // Admission collects only where every planned kind's answers can be read from its streams.
    if (!collector) throw new GatewayError("model_unavailable", "This deployment cannot answer from its stream.");
    const hidden = new HiddenTime(now);
    const cut = new AbortController();
    let opened: OpenedStream | undefined;
    const watch = call.tranche ? trancheWatch(ctx, call, () => opened, hidden, cut) : undefined;
    // What the provider did before a refused extension stopped it, billed with the refusal (402).
    const stopped = () => {
      hidden.stop();
      watch?.end();
      const e: Ending = { usage: opened?.usage, reported: opened?.reported, generated: opened?.generated ?? 0, stream: true, hiddenMs: hidden.ms(), searches: opened?.searches ?? 0 };
      return new ClientGoneError({ target, charge: chargeOf(model, bodyBytes, call.bound, e) }, watch?.refused);
    };
    let up: UpstreamResponse;
    try {
      // Only a refused extension cancels the call: the provider bills the work whether or not the client waits.
      ({ res: up } = await ctx.upstream.send(target.provider, t.request(target), timeoutMs, cut.signal));
    } catch (err) {
      if (cut.signal.aborted) throw stopped();
      watch?.end();
      throw err;
    }
    if (up.status !== 200) {
      watch?.end();
      throw await upstreamFailure(up, t.mapError.bind(t));
    }
    opened = new OpenedStream(up, collector.parser, collectingWriter(collector), undefined, hidden);
    if (watch) opened.tranches = watch;
    const { failure } = await opened.advance();
    if (!opened.done) {
      opened.abandon();
      if (cut.signal.aborted || (watch?.refused !== undefined && failure === watch.refused)) throw stopped();
      throw failure ?? new GatewayError("upstream_error", "The provider ended the stream before it was complete.");
    }
    return { opened, parsed: collector.answer() };
  });
  const { target, translation: t } = planned;
  if (t.dropped.length) call.state.dropped = t.dropped;
  const { opened: o, parsed } = value;
  // Billed as a stream is: the provider's final usage, else what was generated (and may have been reasoned unseen).
  const charge = chargeOf(model, bodyBytes, call.bound, { usage: o.usage, reported: o.reported, generated: o.generated, stream: true, hiddenMs: o.hidden.ms(), searches: o.searches });
  return answered(t, target, parsed.body, charge);
}

/**
 * An attempt's stream, opened: read until its first client frame, so a failure before it can still
 * fall back. The client that left before it gets nothing (the runner drains and bills); a guardrail's
 * refusal before it is the runner's to bill and answer (a 400).
 */
async function openStream<B>(
  up: UpstreamResponse,
  t: Routed["translation"],
  target: Routed["target"],
  hidden: HiddenTime,
  call: Call<B, "chat">,
  upstream: AbortSignal,
  client: AbortSignal,
): Promise<OpenedStream> {
  if (up.status !== 200) throw await upstreamFailure(up, t.mapError.bind(t));
  const guard = streamOutputChecker(call.state, t.shape.route);
  // Relayed as the provider framed it when the client speaks its wire format and no guardrail reads the output.
  const read = (!guard && t.passthrough(target)) || t.streamParser(target);
  const opened = new OpenedStream(up, read, t.shape.stream(), guard, hidden);
  const step = await opened.advance();
  // The client left before the first frame: the runner drains what is left of the window and bills.
  // A failure of the provider's own (not the window's end) is not billed, as it would not be if
  // the client had stayed: the attempt fails with it (and the loop, seeing the client gone, stops).
  if (client.aborted) {
    if (step.failure && !upstream.aborted) {
      opened.abandon();
      throw step.failure;
    }
    opened.leave();
    if (opened.usage) opened.drained = true;
    if (step.denied || step.failure) opened.ending = step;
    return opened;
  }
  // A refusal before the first frame is the runner's to bill and answer (a 400).
  if (step.denied && opened.pending.empty) opened.ending = step;
  else if (opened.pending.empty) {
    opened.abandon();
    throw opened.done
      ? new GatewayError("upstream_error", "The provider sent an empty stream.")
      : (step.failure ?? new GatewayError("upstream_error", "The provider ended the stream before it was complete."));
  }
  // Frames to send, and maybe the end that came with them: the stream has started either way.
  else if (step.denied || step.failure) opened.ending = step;
  return opened;
}

/**
 * The tranche watch of a stream attempt (pipeline/tranches.ts): what the provider may have produced
 * is what its opened stream counted and reported and its hidden time; a refusal interrupts the
 * opened stream (its error event in the client's format), or cancels the request before its first frame.
 */
function trancheWatch<B>(ctx: DataPlaneContext, call: Call<B, "chat">, opened: () => OpenedStream | undefined, hidden: HiddenTime, cut: AbortController): TrancheWatch {
  const { model } = call;
  const spec = call.tranche!;
  const produced = () => {
    const o = opened();
    return producedMinor(model, spec, {
      generated: () => o?.generated ?? 0,
      reportedOutput: () => o?.usage?.output_tokens ?? o?.reported?.output_tokens ?? 0,
      hiddenMs: () => hidden.ms(),
      uses: () => o?.searches ?? 0,
    });
  };
  const stop = (err: GatewayError) => {
    const o = opened();
    if (o) o.interrupt(err);
    else cut.abort(err);
  };
  return new TrancheWatch(call.reservation, spec, produced, stop).start(ctx.config.holdTrancheCheckMs);
}
