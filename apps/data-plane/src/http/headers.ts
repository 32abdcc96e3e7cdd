import type { Request, Response } from "express";
import type { MessagesHeaders } from "../providers/types.js";
import { GUARDRAILS_HEADER, guardrailsHeader } from "../guardrails/index.js";
import type { RequestContext } from "./request-context.js";

const ms = (v: number) => Math.round(v * 100) / 100;

/**
 * `Server-Timing` (W3C): `upstream` is the serving attempt at the provider (the whole answer, or a
 * stream's first frame), `usage` the wait for the usage event to be durable before the answer was
 * released (absent on a stream's headers: it is billed at its end), `total` the time from arrival
 * until these headers. What the gateway itself added is total − upstream − usage (docs/operations.md).
 */
function serverTiming(upstreamMs: number, usageMs: number | undefined, totalMs: number): string {
  return usageMs === undefined ? `upstream;dur=${ms(upstreamMs)}, total;dur=${ms(totalMs)}` : `upstream;dur=${ms(upstreamMs)}, usage;dur=${ms(usageMs)}, total;dur=${ms(totalMs)}`;
}

/**
 * The one place the gateway's per-request response headers are written, from what the stages
 * recorded: which deployment served (or failed last), retries and fallbacks (spec: x-gateway-*),
 * and OpenAI's x-ratelimit-* for keys with limits. Called right before a response starts, success
 * or error, and the guardrail outcomes of an organization with rules (on an error before they ran,
 * `unchecked`: every rule skipped). x-request-id and x-gateway-trace-id go out first, on every
 * response.
 */
export function writeGatewayHeaders(res: Response, rq: RequestContext, unchecked = false): void {
  if (res.headersSent) return;
  const { served, rateLimit, upstreamMs, usageMs, startedHr, dropped } = rq;
  const guardrails = guardrailsHeader(rq, unchecked);
  if (guardrails !== undefined) res.setHeader(GUARDRAILS_HEADER, guardrails);
  if (dropped?.length) res.setHeader("x-gateway-dropped-params", dropped.join(","));
  if (upstreamMs !== undefined) res.setHeader("server-timing", serverTiming(upstreamMs, usageMs, Number(process.hrtime.bigint() - startedHr) / 1e6));
  if (served?.provider) {
    res.setHeader("x-gateway-provider", served.provider);
    res.setHeader("x-gateway-upstream-model", served.upstreamModel);
    res.setHeader("x-gateway-retry-count", String(served.retries));
  }
  if (served && served.fallbacks.length > 0) res.setHeader("x-gateway-attempted-fallbacks", served.fallbacks.join(","));
  if (rq.clamped) res.setHeader("x-gateway-clamped", rq.clamped);
  if (rq.replayed) res.setHeader("idempotent-replayed", "true");
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

function header(req: Request, name: string): string | undefined {
  const v = req.headers[name];
  return typeof v === "string" && v.trim() ? v.trim() : Array.isArray(v) ? v.join(",") : undefined;
}

/** The Messages request headers a native passthrough forwards. */
export function messagesHeaders(req: Request): MessagesHeaders {
  return { version: header(req, "anthropic-version"), beta: header(req, "anthropic-beta") };
}
