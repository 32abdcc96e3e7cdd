import { Agent, errors as undiciErrors, request, type Dispatcher } from "undici";
import { GatewayError } from "@gateway/errors";
import type { UpstreamHttpRequest } from "./types.js";

export interface UpstreamResponse {
  status: number;
  headers: Dispatcher.ResponseData["headers"];
  body: Dispatcher.ResponseData["body"];
}

/** A signal that never aborts: for provider calls that must finish even when the client left. */
export const NEVER_ABORTED: AbortSignal = new AbortController().signal;

/** Why an attempt failed before a response: decides whether the next deployment is tried. */
export class UpstreamTransportError extends Error {
  constructor(readonly kind: "timeout" | "connect" | "aborted", message: string) {
    super(message);
  }
}

/**
 * Pooled keep-alive HTTP client for provider calls. The per-attempt timeout bounds the wait for the
 * response headers and every idle gap between body chunks, not the body's length: a stream that
 * keeps producing runs as long as it produces (a long generation is not cut at the timeout), one
 * that stalls is cut. Connecting has its own 5 s deadline. The attempt follows `signal` (the
 * client going away); no timer or composite signal outlives the call.
 */
export class UpstreamClient {
  private readonly agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
    connections: 512,
    connect: { timeout: 5_000 },
  });

  async send(req: UpstreamHttpRequest, timeoutMs: number, signal: AbortSignal): Promise<{ res: UpstreamResponse; signal: AbortSignal }> {
    try {
      const res = await request(req.url, {
        method: req.method ?? "POST",
        headers: req.headers,
        body: req.body,
        signal,
        dispatcher: this.agent,
        headersTimeout: timeoutMs,
        bodyTimeout: timeoutMs,
      });
      return { res: { status: res.statusCode, headers: res.headers, body: res.body }, signal };
    } catch (err) {
      throw classify(err, signal);
    }
  }

  close(): Promise<void> {
    return this.agent.close();
  }
}

export function classify(err: unknown, clientSignal: AbortSignal): UpstreamTransportError | GatewayError {
  if (err instanceof GatewayError || err instanceof UpstreamTransportError) return err;
  if (clientSignal.aborted) return new UpstreamTransportError("aborted", "client went away");
  const name = err instanceof Error ? err.name : "";
  if (
    name === "TimeoutError" ||
    err instanceof undiciErrors.HeadersTimeoutError ||
    err instanceof undiciErrors.BodyTimeoutError ||
    err instanceof undiciErrors.ConnectTimeoutError
  ) {
    return new UpstreamTransportError("timeout", "the provider did not answer in time");
  }
  return new UpstreamTransportError("connect", `could not reach the provider: ${err instanceof Error ? err.message : String(err)}`);
}
