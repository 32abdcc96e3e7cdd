import { Agent, errors as undiciErrors, request, type Dispatcher } from "undici";
import { GatewayError } from "@gateway/errors";
import type { UpstreamHttpRequest } from "./types.js";

export interface UpstreamResponse {
  status: number;
  headers: Dispatcher.ResponseData["headers"];
  body: Dispatcher.ResponseData["body"];
}

/** Why an attempt failed before a response: decides whether the next deployment is tried. */
export class UpstreamTransportError extends Error {
  constructor(readonly kind: "timeout" | "connect" | "aborted", message: string) {
    super(message);
  }
}

/**
 * Pooled keep-alive HTTP client for provider calls. Every attempt has a deadline (the per-attempt
 * timeout covers connecting, headers and the whole body) and follows the client's abort signal.
 */
export class UpstreamClient {
  private readonly agent = new Agent({
    keepAliveTimeout: 30_000,
    keepAliveMaxTimeout: 120_000,
    connections: 512,
    connect: { timeout: 5_000 },
  });

  async send(req: UpstreamHttpRequest, timeoutMs: number, clientSignal: AbortSignal): Promise<{ res: UpstreamResponse; signal: AbortSignal }> {
    const signal = AbortSignal.any([clientSignal, AbortSignal.timeout(timeoutMs)]);
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
      throw classify(err, clientSignal);
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
