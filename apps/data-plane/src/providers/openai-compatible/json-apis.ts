import { GatewayError } from "@gateway/errors";
import type { EmbeddingsAdapter, ImagesAdapter, UpstreamTarget } from "../types.js";
import { mapOpenAIError, openAIAuthHeaders } from "./chat.js";

const post = (target: UpstreamTarget, path: string, body: Record<string, unknown>) => ({
  url: `${target.provider.base_url.replace(/\/+$/, "")}${path}`,
  headers: { "content-type": "application/json", ...openAIAuthHeaders(target) },
  body: JSON.stringify({ ...body, model: target.deployment.upstream_model }),
});

/** POST /embeddings in the reference shape; usage.prompt_tokens is what is billed. */
export const openAIEmbeddings: EmbeddingsAdapter = {
  build: (body, target) => post(target, "/embeddings", body),
  parse(json) {
    const j = json as { data?: unknown; usage?: { prompt_tokens?: unknown } };
    if (!Array.isArray(j?.data) || typeof j.usage?.prompt_tokens !== "number") throw new GatewayError("upstream_error", "The provider returned an invalid embeddings response.");
    return { body: j as Record<string, unknown>, inputTokens: j.usage.prompt_tokens };
  },
  mapError: mapOpenAIError,
};

/** POST /images/generations in the reference shape; what is billed is the images delivered. */
export const openAIImages: ImagesAdapter = {
  build: (body, target) => post(target, "/images/generations", body),
  parse(json) {
    const j = json as { data?: unknown };
    if (!Array.isArray(j?.data)) throw new GatewayError("upstream_error", "The provider returned an invalid image response.");
    return { body: j as Record<string, unknown>, images: j.data.length };
  },
  mapError: mapOpenAIError,
};
