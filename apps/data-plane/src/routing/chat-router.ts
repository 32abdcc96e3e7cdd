import { once } from "node:events";
import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { UsageEventV1 } from "@gateway/events";
import type { Model } from "@gateway/proto";
import type { DataPlaneContext } from "../context.js";
import { costMinor, estimatePromptTokens, estimateTextTokens } from "../credits/cost.js";
import type { Reservation } from "../credits/lease-manager.js";
import { chatAdapterFor, isProviderKind, type ChatAdapter, type ChatRequestBody, type NormalizedUsage, type UpstreamTarget } from "../providers/index.js";
import { SseParser } from "../providers/sse.js";
import { UpstreamTransportError, classify } from "../providers/upstream-client.js";
import { CircuitBreaker } from "../providers/circuit-breaker.js";
import { locals } from "../http/request-context.js";
import type { ClientShape } from "./client-shape.js";

interface Attempt {
  target: UpstreamTarget;
  adapter: ChatAdapter;
}

/** Deployments in priority order that are configured here (provider known, credential present). */
export function plan(ctx: DataPlaneContext, model: Model): Attempt[] {
  const out: Attempt[] = [];
  for (const d of model.deployments) {
    const provider = ctx.catalog.current.providers.get(d.provider);
    if (!provider || !isProviderKind(provider.kind)) continue;
    const apiKey = provider.credential_ref ? ctx.config.resolveCredential(provider.credential_ref) : undefined;
    if (provider.credential_ref && !apiKey) continue;
    try {
      out.push({ target: { provider, deployment: d, apiKey }, adapter: chatAdapterFor(provider.kind) });
    } catch {
      // Kind without a chat adapter: not a candidate for this route.
    }
  }
  // Cooled-down deployments go last rather than away: if every one is cooling down, still try.
  const closed = out.filter((a) => !ctx.breaker.isOpen(CircuitBreaker.key(a.target.provider.code, a.target.deployment.upstream_model)));
  return closed.length ? closed : out;
}

function retryable(err: GatewayError | UpstreamTransportError): boolean {
  if (err instanceof UpstreamTransportError) return err.kind !== "aborted";
  return err.code === "upstream_error" || err.code === "model_unavailable" || err.code === "upstream_timeout";
}

function toGatewayError(err: GatewayError | UpstreamTransportError): GatewayError {
  if (err instanceof GatewayError) return err;
  if (err.kind === "timeout") return new GatewayError("upstream_timeout", "The provider did not answer within the timeout.");
  return new GatewayError("upstream_error", "The provider could not be reached.");
}

function clampedTimeout(ctx: DataPlaneContext, req: Request): number {
  const raw = req.headers["x-gateway-timeout-ms"];
  const v = typeof raw === "string" && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  if (!Number.isFinite(v) || v < 1000) return ctx.config.upstreamTimeoutMs;
  return Math.min(Math.max(v, ctx.config.upstreamTimeoutMinMs), ctx.config.upstreamTimeoutMaxMs);
}

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
  const failed: string[] = [];
  let lastErr: GatewayError | UpstreamTransportError | undefined;

  let index = 0;
  let retries = 0;
  /**
   * After a retryable failure: retry the same deployment with exponential backoff and full jitter
   * (honouring Retry-After up to the cap), or move on to the next deployment.
   */
  const afterFailure = async (target: UpstreamTarget, err: GatewayError | UpstreamTransportError): Promise<void> => {
    ctx.breaker.failure(CircuitBreaker.key(target.provider.code, target.deployment.upstream_model));
    const retryAfterMs = err instanceof GatewayError && err.context.retry_after_s !== undefined ? err.context.retry_after_s * 1000 : undefined;
    if (retries < ctx.config.upstreamRetries && !client.signal.aborted && (retryAfterMs === undefined || retryAfterMs <= ctx.config.retryMaxMs)) {
      retries++;
      const backoff = Math.random() * Math.min(ctx.config.retryMaxMs, ctx.config.retryBaseMs * 2 ** (retries - 1));
      await new Promise((r) => setTimeout(r, Math.max(backoff, retryAfterMs ?? 0)));
      return;
    }
    failed.push(target.provider.code);
    index++;
    retries = 0;
  };

  while (index < attempts.length && !client.signal.aborted) {
    const { target, adapter } = attempts[index]!;
    const upstreamReq = adapter.buildChatRequest(body, target);
    const setHeaders = () => {
      res.setHeader("x-gateway-provider", target.provider.code);
      res.setHeader("x-gateway-upstream-model", target.deployment.upstream_model);
      res.setHeader("x-gateway-retry-count", String(retries));
      ctx.breaker.success(CircuitBreaker.key(target.provider.code, target.deployment.upstream_model));
      if (failed.length) res.setHeader("x-gateway-attempted-fallbacks", failed.join(","));
    };
    const bill = async (usage: NormalizedUsage, status: number): Promise<number> => {
      const cost = costMinor(usage, model);
      const event: UsageEventV1 = {
        version: 1,
        request_id: l.requestId,
        org_id: l.key!.org_id,
        key_id: l.key!.key_id,
        model: model.id,
        route: shape.route,
        provider: target.provider.code,
        upstream_model: target.deployment.upstream_model,
        lease_id: reservation.leaseId,
        usage,
        input_price_minor_per_mtok: model.input_price_minor_per_mtok,
        output_price_minor_per_mtok: model.output_price_minor_per_mtok,
        cost_minor: cost,
        stream: body.stream === true,
        status,
        created_at_ms: l.startedAt,
        duration_ms: Math.round(Number(process.hrtime.bigint() - l.startedHr) / 1e6),
      };
      await ctx.publisher.publish(event);
      reservation.settle(cost);
      recordTokens(usage.input_tokens + usage.output_tokens);
      return cost;
    };

    let upstream;
    try {
      upstream = await ctx.upstream.send(upstreamReq, timeoutMs, client.signal);
    } catch (err) {
      lastErr = classify(err, client.signal);
      ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome: lastErr instanceof UpstreamTransportError ? lastErr.kind : "error" });
      if (!retryable(lastErr)) break;
      await afterFailure(target, lastErr);
      continue;
    }
    const { res: up } = upstream;
    if (up.status !== 200) {
      const text = await up.body.text().catch(() => "");
      const ra = up.headers["retry-after"];
      lastErr = adapter.mapError(up.status, text, typeof ra === "string" ? ra : undefined);
      ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome: String(up.status) });
      if (!retryable(lastErr)) break;
      await afterFailure(target, lastErr);
      continue;
    }

    if (!body.stream) {
      let parsed;
      try {
        parsed = adapter.parseChatResponse(await up.body.json(), model.id);
      } catch (err) {
        lastErr = err instanceof GatewayError ? err : new GatewayError("upstream_error", "The provider returned an invalid response.");
        if (client.signal.aborted) break;
        ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome: "invalid" });
        await afterFailure(target, lastErr);
        continue;
      }
      ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome: "ok" });
      const usage = parsed.usage ?? {
        input_tokens: Math.ceil(bodyBytes / 4),
        output_tokens: estimateTextTokens(JSON.stringify(parsed.body.choices ?? "")),
        cached_input_tokens: 0,
        estimated: true,
      };
      // Durable before the caller sees the answer: a response is never unbilled.
      await bill(usage, 200);
      setHeaders();
      res.status(200).json(shape.body(parsed.body, usage));
      return;
    }

    // Streaming: nothing goes to the client until the upstream produced its first event, so a
    // failure before that still falls back to the next deployment.
    const parser = new SseParser();
    const writer = shape.stream();
    let started = false;
    let done = false;
    let usage: NormalizedUsage | undefined;
    let text = "";
    let failure: GatewayError | UpstreamTransportError | undefined;
    try {
      for await (const chunk of up.body) {
        for (const ev of parser.push(chunk as Uint8Array)) {
          const parsed = adapter.parseStreamData(ev.data, model.id, target.deployment.upstream_model);
          if (parsed.usage) usage = parsed.usage;
          text += parsed.text;
          if (parsed.done) {
            done = true;
            break;
          }
          const frames = writer.chunk(parsed);
          if (!frames) continue;
          if (!started) {
            started = true;
            setHeaders();
            res.writeHead(200, { "content-type": "text/event-stream; charset=utf-8", "cache-control": "no-cache", "x-accel-buffering": "no" });
          }
          if (!res.write(frames)) await once(res, "drain", { signal: client.signal });
        }
        if (done) break;
      }
    } catch (err) {
      failure = err instanceof GatewayError ? err : classify(err, client.signal);
    }
    if (!done && !failure) failure = new GatewayError("upstream_error", "The provider ended the stream before it was complete.");

    if (!started) {
      // Nothing delivered: fall back if we can; the request is not billed.
      lastErr = failure ?? new GatewayError("upstream_error", "The provider sent an empty stream.");
      ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome: "stream_failed" });
      if (client.signal.aborted || !retryable(lastErr)) break;
      await afterFailure(target, lastErr);
      continue;
    }
    ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome: failure ? "stream_cut" : "ok" });
    const billed = usage ?? {
      input_tokens: Math.ceil(bodyBytes / 4),
      output_tokens: estimateTextTokens(text),
      cached_input_tokens: 0,
      estimated: true,
    };
    await bill(billed, 200);
    if (client.signal.aborted) return;
    // Never a clean end that looks complete after a failure: an explicit error event, then close.
    res.end(failure ? writer.error(toGatewayError(failure), l.requestId) : writer.end(billed));
    return;
  }
  const err = lastErr ? toGatewayError(lastErr) : new GatewayError("model_unavailable", "No provider could serve the request.");
  if (failed.length) res.setHeader("x-gateway-attempted-fallbacks", failed.join(","));
  if (client.signal.aborted) return;
  throw err;
}
