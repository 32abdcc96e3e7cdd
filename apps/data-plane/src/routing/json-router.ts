import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { Model } from "@gateway/proto";
import type { LineItem } from "@gateway/events";
import type { DataPlaneContext } from "../context.js";
import type { Reservation } from "../credits/lease-manager.js";
import type { NormalizedUsage, UpstreamHttpRequest, UpstreamTarget } from "../providers/index.js";
import { mapOpenAIError } from "../providers/openai-compatible/chat.js";
import { NEVER_ABORTED, UpstreamTransportError, classify } from "../providers/upstream-client.js";
import { AttemptCursor, billUsage, clampedTimeout, planTargets, retryable, toGatewayError } from "./attempts.js";

/** One non-streaming JSON call in the provider's shape (embeddings, images). */
export interface JsonCall {
  route: string;
  /** The upstream request for this target, or undefined when its provider kind cannot serve it. */
  build(target: UpstreamTarget): UpstreamHttpRequest | undefined;
  /** The client's answer, the usage and the cost from the provider's JSON; throws upstream_error. */
  parse(json: unknown): { body: unknown; usage: NormalizedUsage; costMinor: number; lineItems?: LineItem[] };
}

/** Runs a JSON call over the model's deployments with retries and fallbacks, bills, answers. */
export async function runJson(ctx: DataPlaneContext, req: Request, res: Response, model: Model, reservation: Reservation, recordTokens: (n: number) => void, call: JsonCall): Promise<void> {
  const client = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) client.abort();
  });
  const attempts = planTargets(ctx, model).flatMap((target) => {
    const request = call.build(target);
    return request ? [{ target, request }] : [];
  });
  if (attempts.length === 0) throw new GatewayError("model_unavailable", `The model '${model.id}' has no configured provider deployment for this route on this gateway.`);
  const timeoutMs = clampedTimeout(ctx, req);
  const cursor = new AttemptCursor(ctx, attempts, client.signal);
  for (let a = cursor.current; a; a = cursor.current) {
    const { target, request } = a;
    const metric = (outcome: string) => ctx.metrics.upstreamAttempts.inc({ provider: target.provider.code, outcome });
    let parsed;
    try {
      // The provider charges for the work whether or not the client waits: finish and bill it.
      const { res: up } = await ctx.upstream.send(request, timeoutMs, NEVER_ABORTED);
      if (up.status !== 200) {
        const ra = up.headers["retry-after"];
        const e = mapOpenAIError(up.status, await up.body.text().catch(() => ""), typeof ra === "string" ? ra : undefined);
        metric(String(up.status));
        if (!retryable(e)) throw e;
        await cursor.failure(e);
        continue;
      }
      let json: unknown;
      try {
        json = await up.body.json();
      } catch {
        throw new GatewayError("upstream_error", "The provider returned an invalid response.");
      }
      parsed = call.parse(json);
    } catch (err) {
      const e = err instanceof GatewayError ? err : classify(err, client.signal);
      if (client.signal.aborted) return;
      metric(e instanceof UpstreamTransportError ? e.kind : "invalid");
      if (!retryable(e)) throw toGatewayError(e);
      await cursor.failure(e);
      continue;
    }
    metric("ok");
    const status = client.signal.aborted ? 499 : 200;
    await billUsage(ctx, res, { model, route: call.route, target, reservation, usage: parsed.usage, costMinor: parsed.costMinor, stream: false, status, ...(parsed.lineItems ? { lineItems: parsed.lineItems } : {}) });
    if (client.signal.aborted) return;
    recordTokens(parsed.usage.input_tokens + parsed.usage.output_tokens);
    cursor.serve(res);
    res.status(200).json(parsed.body);
    return;
  }
  if (client.signal.aborted) return;
  throw cursor.finalError(res);
}
