import { once } from "node:events";
import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { costMinor, estimateTextTokens } from "../credits/cost.js";
import type { Reservation } from "../credits/lease-manager.js";
import { chatAdapterFor, type ChatAdapter, type ChatRequestBody, type NormalizedUsage, type UpstreamTarget } from "../providers/index.js";
import { SseParser } from "../providers/sse.js";
import { NEVER_ABORTED, UpstreamTransportError, classify } from "../providers/upstream-client.js";
import { locals } from "../http/request-context.js";
import { AttemptCursor, billUsage, clampedTimeout, planTargets, retryable, toGatewayError } from "./attempts.js";
import type { ClientShape } from "./client-shape.js";
import { runStage, streamOutputChecker, TextCollector } from "../guardrails/index.js";

/** The text of a chat completion's choices, for output guardrails (masking rewrites it). */
function completionTexts(body: Record<string, unknown>): TextCollector {
  const t = new TextCollector();
  for (const c of (body.choices as Array<{ message?: { content?: unknown } }> | undefined) ?? []) {
    const m = c.message;
    if (m) t.add(m.content, (v) => (m.content = v));
  }
  return t;
}

interface Attempt {
  target: UpstreamTarget;
  adapter: ChatAdapter;
}

/** Configured deployments whose provider kind has a chat adapter, in routing order. */
export function plan(ctx: DataPlaneContext, model: Model): Attempt[] {
  const out: Attempt[] = [];
  for (const target of planTargets(ctx, model)) {
    if (target.provider.kind === "fal") continue; // video only
    try {
      out.push({ target, adapter: chatAdapterFor(target.provider.kind as never) });
    } catch {
      // A provider kind without a chat adapter is not a candidate for this route.
    }
  }
  return out;
}

/**
 * Calls the model's deployments until one answers: retries and fallbacks, then the answer in the
 * client's shape. A stream is held back until the upstream's first event, so a failed first
 * attempt still falls back; after that an upstream failure ends it with an explicit error event,
 * and what was delivered is billed (counted when the provider reported no usage).
 */
export async function run(
  ctx: DataPlaneContext,
  req: Request,
  res: Response,
  body: ChatRequestBody,
  model: Model,
  attempts: Attempt[],
  reservation: Reservation,
  bodyBytes: number,
  recordTokens: (tokens: number) => void,
  shape: ClientShape,
): Promise<void> {
  const l = locals(res);
  const client = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) client.abort();
  });
  const timeoutMs = clampedTimeout(ctx, req);
  const cursor = new AttemptCursor(ctx, attempts, client.signal);
  const metric = (target: UpstreamTarget, outcome: string) => ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome });
  const bill = async (target: UpstreamTarget, usage: NormalizedUsage, status = 200) => {
    const cost = costMinor(usage, model);
    await billUsage(ctx, res, { model, route: shape.route, target, reservation, usage, costMinor: cost, stream: body.stream === true, status });
    recordTokens(usage.input_tokens + usage.output_tokens);
  };
  const counted = (text: string): NormalizedUsage => ({ input_tokens: Math.ceil(bodyBytes / 4), output_tokens: estimateTextTokens(text), cached_input_tokens: 0, estimated: true });

  for (let a = cursor.current; a; a = cursor.current) {
    const { target, adapter } = a;
    let upstream;
    try {
      // A stream follows the client: when it leaves, the upstream call is cancelled and what was
      // delivered is billed. A non-streaming answer is charged by the provider whether or not the
      // client waits for it, so the attempt in flight runs to its end and is billed (no new attempt
      // starts once the client left).
      upstream = await ctx.upstream.send(adapter.buildChatRequest(body, target), timeoutMs, body.stream ? client.signal : NEVER_ABORTED);
    } catch (err) {
      const e = classify(err, client.signal);
      metric(target, e instanceof UpstreamTransportError ? e.kind : "error");
      if (!retryable(e)) throw toGatewayError(e);
      await cursor.failure(e);
      continue;
    }
    const { res: up } = upstream;
    if (up.status !== 200) {
      const text = await up.body.text().catch(() => "");
      const ra = up.headers["retry-after"];
      const e = adapter.mapError(up.status, text, typeof ra === "string" ? ra : undefined);
      metric(target, String(up.status));
      if (!retryable(e)) throw e;
      await cursor.failure(e);
      continue;
    }

    if (!body.stream) {
      let parsed;
      try {
        parsed = adapter.parseChatResponse(await up.body.json(), model.id);
      } catch (err) {
        metric(target, "invalid");
        if (client.signal.aborted) return;
        await cursor.failure(err instanceof GatewayError ? err : new GatewayError("upstream_error", "The provider returned an invalid response."));
        continue;
      }
      metric(target, "ok");
      const usage = parsed.usage ?? counted(JSON.stringify(parsed.body.choices ?? ""));
      if (client.signal.aborted) {
        // Nobody to answer, but the provider did the work: bill it.
        await bill(target, usage, 499);
        return;
      }
      // Output guardrails: a denial still bills the work the model did (docs/guardrails.md).
      let denied: unknown;
      try {
        const pending = runStage(ctx, res, shape.route, "output", () => completionTexts(parsed.body));
        if (pending) await pending;
      } catch (err) {
        denied = err;
      }
      // Durable before the caller sees the answer: a response is never unbilled.
      await bill(target, usage, denied ? 400 : 200);
      cursor.serve(res);
      if (denied) throw denied;
      res.status(200).json(shape.body(parsed.body, usage));
      return;
    }

    const parser = new SseParser();
    const parseEvent = adapter.streamParser(model.id, target.deployment.upstream_model);
    const writer = shape.stream();
    let started = false;
    let done = false;
    let usage: NormalizedUsage | undefined;
    let text = "";
    let failure: GatewayError | UpstreamTransportError | undefined;
    let guardDenied: GatewayError | undefined;
    const guard = streamOutputChecker(res, shape.route);
    try {
      for await (const chunk of up.body) {
        for (const ev of parser.push(chunk as Uint8Array)) {
          const parsed = parseEvent(ev.data);
          if (parsed.usage) usage = parsed.usage;
          text += parsed.text;
          if (parsed.done) {
            done = true;
            break;
          }
          const violation = guard && parsed.text ? guard(parsed.text) : undefined;
          if (violation) {
            // Window mode: the offending piece is not sent; the stream ends with an error event.
            guardDenied = new GatewayError("guardrail_denied", violation);
            break;
          }
          const frames = writer.chunk(parsed);
          if (!frames) continue;
          if (!started) {
            started = true;
            cursor.serve(res);
            res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" });
          }
          if (!res.write(frames)) await once(res, "drain", { signal: client.signal });
        }
        if (done || guardDenied) break;
      }
    } catch (err) {
      failure = err instanceof GatewayError ? err : classify(err, client.signal);
    }
    if (guardDenied) {
      up.body.destroy();
      const billed = usage ?? counted(text);
      await bill(target, billed, 400);
      if (client.signal.aborted) return;
      if (!started) {
        cursor.serve(res);
        throw guardDenied;
      }
      res.end(writer.error(guardDenied, l.requestId));
      return;
    }
    if (!done && !failure) failure = new GatewayError("upstream_error", "The provider ended the stream before it was complete.");
    if (!started) {
      // Nothing delivered: fall back if we can; the request is not billed.
      const e = failure ?? new GatewayError("upstream_error", "The provider sent an empty stream.");
      metric(target, "stream_failed");
      if (client.signal.aborted) return;
      if (!retryable(e)) throw toGatewayError(e);
      await cursor.failure(e);
      continue;
    }
    metric(target, failure ? "stream_cut" : "ok");
    const billed = usage ?? counted(text);
    await bill(target, billed);
    if (client.signal.aborted) return;
    res.end(failure ? writer.error(toGatewayError(failure), l.requestId) : writer.end(billed));
    return;
  }
  if (client.signal.aborted) return;
  throw cursor.finalError(res);
}
