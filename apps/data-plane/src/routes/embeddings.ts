import { z } from "zod";
import { modelId, parseBody, positiveInt } from "../http/body.js";
import type { DataPlaneContext } from "../context.js";
import { costMinor } from "@gateway/pricing";
import { embeddingsInputBound } from "../credits/bounds.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import { fieldTexts } from "../translate/texts.js";
import { attemptAll, sendJson } from "../pipeline/attempts.js";

const isTokens = (x: unknown): boolean => Array.isArray(x) && x.length > 0 && x.every((n) => Number.isInteger(n) && n >= 0);
const INPUT = "'input' must be a non-empty string, a token array, or an array of up to 2048 non-empty strings or token arrays.";

/** The embeddings fields the gateway relies on; the rest passes through. */
const EmbeddingsBody = z.looseObject({
  model: modelId,
  // One string, one token array (a single input, as long as the model takes), or up to 2048 of either.
  input: z
    .unknown()
    .refine(
      (input) =>
        (typeof input === "string" && input.length > 0) ||
        isTokens(input) ||
        (Array.isArray(input) && input.length > 0 && input.length <= 2048 && (input.every((s) => typeof s === "string" && s.length > 0) || input.every(isTokens))),
      INPUT,
    ),
  encoding_format: z.enum(["float", "base64"], { error: "'encoding_format' must be 'float' or 'base64'." }).optional(),
  dimensions: positiveInt("dimensions"),
});

type EmbeddingsRequest = Record<string, unknown> & { model: string };

/** POST /v1/embeddings: string and array inputs, encoding_format, dimensions; billed per input token. */
export const embeddingsRoute: RouteSpec<EmbeddingsRequest, "embeddings"> = {
  route: "embeddings",
  capability: "embeddings",
  parse: (raw) => parseBody(EmbeddingsBody, raw) as EmbeddingsRequest,
  admission: (body) => ({
    modelId: body.model,
    promptTokensBound: (m) => embeddingsInputBound(m, body.input),
    requestedOutput: 0,
    guard: { stream: false, texts: (b) => fieldTexts(b, "input") },
  }),
  async serve(ctx, call) {
    const { body, model, planned, timeoutMs } = call;
    const { planned: p, value } = await attemptAll(ctx, call, planned, async ({ target, adapter }) =>
      adapter.parse(await sendJson(ctx, target, adapter.build(body, target), timeoutMs, adapter.mapError)),
    );
    const usage = { input_tokens: value.inputTokens, output_tokens: 0, cached_input_tokens: 0, estimated: false };
    return { kind: "answer", target: p.target, charge: { usage, costMinor: costMinor(usage, model) }, render: () => ({ ...value.body, model: model.id }) };
  },
};

export const embeddings = (ctx: DataPlaneContext) => handle(ctx, embeddingsRoute);
