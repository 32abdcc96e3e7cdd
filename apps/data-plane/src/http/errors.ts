import type { NextFunction, Request, Response } from "express";
import { GatewayError, toErrorBody } from "@gateway/errors";
import type { Logger } from "@gateway/observability";
import { requestOf } from "./request-context.js";
import { writeGatewayHeaders } from "./headers.js";

interface HttpParserError {
  type?: string;
  status?: number;
  statusCode?: number;
  limit?: number;
}

/** Turns what body parsers throw into the gateway's error codes. */
function fromParser(err: HttpParserError): GatewayError | undefined {
  switch (err.type) {
    case "entity.too.large":
      // The limit applies to the decoded body: a small compressed body that inflates past it lands here.
      return new GatewayError("request_too_large", `Request body exceeds the limit of ${err.limit ?? "the configured"} bytes (decoded).`);
    case "entity.parse.failed":
      return new GatewayError("invalid_json", "Request body is not valid JSON.");
    case "encoding.unsupported":
      return new GatewayError("unsupported_media_type", "Unsupported Content-Encoding: send the body as identity, gzip, deflate or br.");
    case "charset.unsupported":
      return new GatewayError("unsupported_media_type", "Unsupported request body charset: send UTF-8.");
    case "request.aborted":
    case "request.size.invalid":
      return new GatewayError("invalid_request", "The request body was incomplete.");
    default:
      break;
  }
  // zlib and brotli failures (a body that does not match its Content-Encoding, a truncated stream)
  // reach us as bare 400s without a type.
  const status = err.status ?? err.statusCode;
  if (status === 400) return new GatewayError("invalid_request", "The request body could not be decoded: it does not match its Content-Encoding.");
  if (status === 413) return new GatewayError("request_too_large", "Request body exceeds the limit once decoded.");
  if (status === 415) return new GatewayError("unsupported_media_type", "Unsupported request body encoding.");
  return undefined;
}

/** The one place errors become HTTP: the spec's error object, always with the request id. */
export function errorHandler(log: Logger) {
  return (err: unknown, req: Request, res: Response, _next: NextFunction): void => {
    const rq = requestOf(res);
    const { requestId } = rq;
    let gErr: GatewayError;
    if (err instanceof GatewayError) gErr = err;
    else {
      const parsed = err && typeof err === "object" ? fromParser(err as HttpParserError) : undefined;
      if (parsed) gErr = parsed;
      else {
        log.error({ err, request_id: requestId }, "unhandled error");
        gErr = new GatewayError("internal_error", "The gateway could not complete the request.");
      }
    }
    if (res.headersSent) {
      res.destroy();
      return;
    }
    // An organization with rules sees the guardrails header on every model-route error, even before they ran.
    writeGatewayHeaders(res, rq, req.method === "POST");
    if (gErr.context.retry_after_s !== undefined) res.setHeader("retry-after", String(gErr.context.retry_after_s));
    const body = toErrorBody(gErr, requestId);
    res.status(gErr.httpStatus).json(rq.errorShape === "anthropic" ? { type: "error", ...body } : body);
  };
}

/**
 * Routes of the Messages API answer errors as the Anthropic SDK reads them, `{"type": "error",
 * "error": {...}}` (the extra top-level field is allowed by the spec): set before anything can fail.
 */
export function anthropicErrors(_req: Request, res: Response, next: NextFunction): void {
  requestOf(res).errorShape = "anthropic";
  next();
}

export function notFound(req: Request, _res: Response, next: NextFunction): void {
  next(new GatewayError("not_found", `Unknown route: ${req.method} ${req.path}`));
}
