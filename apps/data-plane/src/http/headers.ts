import type { Response } from "express";
import { locals } from "./request-context.js";

/**
 * The one place the gateway's per-request response headers are written, from what the stages
 * recorded: which deployment served (or failed last), retries and fallbacks (spec: x-gateway-*),
 * and OpenAI's x-ratelimit-* for keys with limits. Called right before a response starts, success
 * or error. (x-request-id and x-gateway-trace-id go out first, on every response; guardrail
 * outcomes are written by the guardrail stage itself.)
 */
export function writeGatewayHeaders(res: Response): void {
  if (res.headersSent) return;
  const { served, rateLimit } = locals(res);
  if (served?.provider) {
    res.setHeader("x-gateway-provider", served.provider);
    res.setHeader("x-gateway-upstream-model", served.upstreamModel);
    res.setHeader("x-gateway-retry-count", String(served.retries));
  }
  if (served && served.fallbacks.length > 0) res.setHeader("x-gateway-attempted-fallbacks", served.fallbacks.join(","));
  if (rateLimit) {
    if (rateLimit.rpm > 0) {
      res.setHeader("x-ratelimit-limit-requests", String(rateLimit.rpm));
      res.setHeader("x-ratelimit-remaining-requests", String(rateLimit.remainingRequests ?? 0));
      res.setHeader("x-ratelimit-reset-requests", `${rateLimit.resetS}s`);
    }
    if (rateLimit.tpm > 0) {
      res.setHeader("x-ratelimit-limit-tokens", String(rateLimit.tpm));
      res.setHeader("x-ratelimit-remaining-tokens", String(rateLimit.remainingTokens ?? 0));
      res.setHeader("x-ratelimit-reset-tokens", `${rateLimit.resetS}s`);
    }
  }
}
