import type { Request, Response } from "express";
import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import type { DataPlaneContext } from "../context.js";
import { ContextChecker } from "../admission/context-check.js";
import { applyRateLimit } from "../admission/admit.js";
import { resolveModel } from "../catalog/visibility.js";
import { modelId, parseBody } from "../http/body.js";
import { writeGatewayHeaders } from "../http/headers.js";
import { locals } from "../http/request-context.js";
import { attemptAll, clampedTimeout, clientSignal, plan, sendJson } from "../pipeline/attempts.js";
import { adapterFor } from "../providers/index.js";
import { messagesHeaders, messagesTexts } from "./messages.js";

const CountTokensBody = z.looseObject({
  model: modelId,
  messages: z.array(z.unknown(), { error: "'messages' is required: a non-empty array of messages." }).min(1, "'messages' is required: a non-empty array of messages."),
});

/**
 * POST /v1/messages/count_tokens: the prompt tokens of a Messages body, for a model the key may
 * use. Not billed and nothing is held (the request rate limit applies). An Anthropic deployment
 * counts with the provider (the body forwarded with only the model rewritten, retried and failed
 * over like any attempt); a model without one gets the gateway's count: the real tokenizer for
 * OpenAI model families when the context pre-check has loaded them, otherwise the conservative
 * estimate of one token per 3 UTF-8 bytes, each plus 4 per text part (docs/providers.md).
 */
export function countTokens(ctx: DataPlaneContext) {
  return async (req: Request, res: Response): Promise<void> => {
    const raw = parseBody(CountTokensBody, req.body) as Record<string, unknown> & { model: string };
    const l = locals(res);
    l.model = raw.model;
    const model = resolveModel(l.key!, ctx.catalog.current, ctx.catalog.trialPolicy, "messages", raw.model);
    const planned = plan(ctx, model, "chat");
    applyRateLimit(ctx, res);
    const native = planned.filter((p) => adapterFor(p.target.provider.kind).messages);
    let inputTokens: number;
    if (native.length > 0) {
      const headers = messagesHeaders(req);
      const timeoutMs = clampedTimeout(ctx, req);
      const { value } = await attemptAll(ctx, res, native, clientSignal(res), async ({ target }) => {
        const adapter = adapterFor(target.provider.kind).messages!(headers);
        const json = (await sendJson(ctx, target, adapter.buildCountTokensRequest(raw, target), timeoutMs, adapter.mapError)) as { input_tokens?: unknown } | null;
        if (typeof json?.input_tokens !== "number") throw new GatewayError("upstream_error", "The provider returned an invalid token count.");
        return json.input_tokens;
      });
      inputTokens = value;
    } else {
      const texts = messagesTexts(structuredClone(raw)).segments.map((s) => s.text);
      if (Array.isArray(raw.tools)) texts.push(JSON.stringify(raw.tools));
      inputTokens = (ctx.contextChecker ?? new ContextChecker()).count(texts, planned[0]!.target.deployment.upstream_model);
    }
    writeGatewayHeaders(res);
    res.json({ input_tokens: inputTokens });
  };
}
