import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { costMinor, estimateCharTokens } from "../credits/cost.js";
import { streamOutputChecker } from "../guardrails/index.js";
import type { NormalizedUsage } from "../providers/index.js";
import { NEVER_ABORTED } from "../providers/upstream-client.js";
import type { Routed } from "../translate/pairs/index.js";
import { attemptAll, upstreamFailure } from "./attempts.js";
import type { Charge } from "./bill.js";
import type { Call, Served } from "./route.js";
import type { Bound } from "../admission/admit.js";
import { OpenedStream } from "./stream.js";

/** A chat-like request (chat completions, Messages, Responses) translated for its deployments. */
interface ChatServing {
  routes: Routed[];
  stream: boolean;
}

/**
 * The charge for usage: the provider's. When it reported none (a stream the client left or the
 * provider cut before its usage), at least what the provider would bill for what it did: what it
 * had reported so far (a stream's input and cache counts from its start), else the prompt estimated
 * from the body with every image at the catalog's maximum per image; the generated text, counted;
 * and for a stream on a model the catalog prices reasoning for, the reasoning it may have done
 * unseen before and between the visible tokens, at its bound — the output limit less what was seen
 * (docs/billing.md, "Streams that end without usage").
 */
function chargeOf(model: Model, bodyBytes: number, usage: NormalizedUsage | undefined, generatedChars: () => number, bound: Bound, stream: boolean, reported?: NormalizedUsage): Charge {
  if (usage) return { usage, costMinor: costMinor(usage, model) };
  const seen = Math.max(reported?.output_tokens ?? 0, estimateCharTokens(generatedChars()));
  const hidden = stream && model.reasoning_price_minor_per_mtok !== undefined && !(reported?.reasoning_tokens ?? 0) ? Math.max(0, bound.output - seen) : 0;
  const input = reported ?? { input_tokens: Math.ceil(bodyBytes / 4) + (bound.images ?? 0), cached_input_tokens: 0 };
  const u: NormalizedUsage = { ...input, output_tokens: seen + hidden, ...(hidden > 0 ? { reasoning_tokens: hidden } : {}), estimated: true };
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
    const { planned, value: stream } = await attemptAll(ctx, call, s.routes, async ({ target, translation: t }) => {
      const { res: up } = await ctx.upstream.send(target.provider, t.request(target), timeoutMs, client);
      if (up.status !== 200) throw await upstreamFailure(up, t.mapError.bind(t));
      const guard = streamOutputChecker(call.state, t.shape.route);
      // Relayed as the provider framed it when the client speaks its wire format and no guardrail reads the output.
      const read = (!guard && t.passthrough(target)) || t.streamParser(target);
      const opened = new OpenedStream(up, read, t.shape.stream(), guard);
      const step = await opened.advance();
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
    });
    if (planned.translation.dropped.length) call.state.dropped = planned.translation.dropped;
    return { kind: "stream", target: planned.target, stream, charge: () => chargeOf(model, bodyBytes, stream.usage, () => stream.generated, call.bound, true, stream.reported) };
  }
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
  const charge = chargeOf(model, bodyBytes, parsed.usage, () => JSON.stringify(body.choices ?? body.content ?? body.output ?? "").length, call.bound, false);
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
