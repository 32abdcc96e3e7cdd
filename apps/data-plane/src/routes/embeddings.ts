import { z } from "zod";
import { modelId, parseBody, positiveInt } from "../http/body.js";
import type { DataPlaneContext } from "../context.js";
import { costMinor } from "../credits/cost.js";
import { embeddingsInputBound } from "../credits/bounds.js";
import { handle, type RouteSpec } from "../pipeline/route.js";
import { fieldTexts } from "../guardrails/index.js";
import { ClientGoneError, attemptAll, billUsage, clampedTimeout, clientSignal, sendJson } from "../pipeline/attempts.js";
import { writeGatewayHeaders } from "../http/headers.js";

const isTokens = (x: unknown): boolean => Array.isArray(x) && x.length > 0 && x.every((n) => Number.isInteger(n) && n >= 0);
const INPUT = "'input' must be a non-empty string, a token array, or an array of up to 2048 non-empty strings or token arrays.";

/** The embeddings fields the gateway relies on; the rest passes through. */
const EmbeddingsBody = z.looseObject({
  model: modelId,
  // One string, one token array (a single input, as long as the model takes), or up to 2048 of either.
  input: z.unknown().refine(
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
    guard: { stream: false, texts: () => fieldTexts(body, "input") },
  }),
  async execute(ctx, req, res, { body, model, planned, reservation }) {
    const client = clientSignal(res);
    const timeoutMs = clampedTimeout(ctx, req);
    let served;
    try {
      served = await attemptAll(ctx, res, planned, client, async ({ target, adapter }) => adapter.parse(await sendJson(ctx, target, adapter.build(body, target), timeoutMs, adapter.mapError)));
    } catch (err) {
      if (err instanceof ClientGoneError) return;
      throw err;
    }
    const usage = { input_tokens: served.value.inputTokens, output_tokens: 0, cached_input_tokens: 0, estimated: false };
    // Billed even when the client left meanwhile (status 499): the provider did the work.
    await billUsage(ctx, res, { model, route: "embeddings", target: served.planned.target, reservation, usage, costMinor: costMinor(usage, model), stream: false, status: client.aborted ? 499 : 200 });
    if (client.aborted) return;
    writeGatewayHeaders(res);
    res.status(200).json({ ...served.value.body, model: model.id });
  },
};

export const embeddings = (ctx: DataPlaneContext) => handle(ctx, embeddingsRoute);
