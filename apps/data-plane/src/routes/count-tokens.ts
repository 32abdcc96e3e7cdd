import { z } from "zod";
import { GatewayError } from "@gateway/errors";
import type { DataPlaneContext } from "../context.js";
import { ContextChecker } from "../admission/context-check.js";
import { modelId, parseBody } from "../http/body.js";
import { messagesHeaders } from "../http/headers.js";
import { attemptAll, sendJson } from "../pipeline/attempts.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import type { MessagesRequestBody } from "../providers/index.js";
import { PROVIDERS } from "../providers/table.js";
import { messagesRequestTexts, textsOf } from "../translate/texts.js";
import { allowedBetas, refuseWhatMessagesRefuses } from "./messages.js";

const CountTokensBody = z.looseObject({
  model: modelId,
  messages: z.array(z.unknown(), { error: "'messages' is required: a non-empty array of messages." }).min(1, "'messages' is required: a non-empty array of messages."),
});

/**
 * POST /v1/messages/count_tokens: the prompt tokens of a Messages body, for a model the key may
 * use (the messages route's visibility and scope). Not billed and nothing is held (the request
 * rate limit applies). A deployment whose provider speaks the Messages API counts with the provider
 * (the body forwarded with only the model rewritten, retried and failed over like any attempt); a
 * model without one gets the gateway's count: the real tokenizer for OpenAI model families when
 * the context pre-check has loaded them, otherwise the conservative estimate of one token per 3
 * UTF-8 bytes, each plus 4 per text part (docs/providers.md).
 */
export const countTokensRoute: RouteSpec<MessagesRequestBody, "chat"> = {
  route: "messages",
  capability: "chat",
  parse: (raw) => {
    const body = parseBody(CountTokensBody, raw) as MessagesRequestBody;
    refuseWhatMessagesRefuses(body);
    return body;
  },
  admission: (body) => ({ modelId: body.model, promptTokensBound: () => 0, requestedOutput: undefined, free: true }),
  async serve(ctx, call) {
    const { body, planned, req, timeoutMs, model } = call;
    // The betas the catalog allows, as for messages.
    const headers = messagesHeaders(req);
    const beta = allowedBetas(headers.beta, model, req.res);
    const native = planned.flatMap((p) => {
      const count = PROVIDERS[p.target.provider.kind].countTokens;
      return count ? [{ target: p.target, adapter: count({ ...headers, beta }) }] : [];
    });
    if (native.length === 0) {
      const texts = textsOf(messagesRequestTexts(body));
      if (Array.isArray(body.tools)) texts.push(JSON.stringify(body.tools));
      return { kind: "unbilled", body: { input_tokens: (ctx.contextChecker ?? new ContextChecker()).count(texts, planned[0]!.target.deployment.upstream_model) } };
    }
    const { value } = await attemptAll(ctx, call, native, async ({ target, adapter }) => {
      const json = (await sendJson(ctx, target, adapter.buildCountTokensRequest(body, target), timeoutMs, adapter.mapError)) as { input_tokens?: unknown } | null;
      if (typeof json?.input_tokens !== "number") throw new GatewayError("upstream_error", "The provider returned an invalid token count.");
      return json.input_tokens;
    });
    return { kind: "unbilled", body: { input_tokens: value } };
  },
};

export const countTokens = (ctx: DataPlaneContext) => handle(ctx, countTokensRoute);
