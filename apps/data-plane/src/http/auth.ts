import { hash } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { NextFunction, Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { KeyContext } from "@gateway/proto";
import type { KeyCache } from "../auth/key-cache.js";
import { endWithError } from "@gateway/observability";
import { requestOf } from "./request-context.js";
import { startSpan, withSpan } from "./tracing.js";

const KEY_SHAPE = /^sk-gateway-[A-Za-z0-9_-]{32,128}$/;

export function hashKey(secret: string): string {
  return hash("sha256", secret, "hex");
}

/**
 * The API key a request carries (`Authorization: Bearer`, or the Anthropic SDK's `x-api-key`, on
 * every route), or the error that refuses it: missing, not a Bearer header, not a gateway key's shape.
 */
export function secretOf(headers: IncomingHttpHeaders): string | GatewayError {
  const header = headers.authorization;
  const xApiKey = headers["x-api-key"];
  let secret: string | undefined;
  if (typeof header === "string" && header.length > 0) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) return new GatewayError("invalid_api_key", "The Authorization header must be 'Bearer <API key>'.");
    secret = m[1];
  } else if (typeof xApiKey === "string" && xApiKey.length > 0) {
    secret = xApiKey.trim();
  }
  if (!secret) return new GatewayError("missing_api_key", "No API key provided. Send 'Authorization: Bearer sk-gateway-…'.");
  if (!KEY_SHAPE.test(secret)) return new GatewayError("invalid_api_key", "The API key is malformed: gateway keys start with 'sk-gateway-'.");
  return secret;
}

/**
 * The key of a secret's hash from the cache (its fresh entry at once, else looked up), refused as
 * the middleware refuses it: unknown (401), revoked (401), not checkable now (503).
 */
export async function keyOf(keys: KeyCache, keyHash: string): Promise<KeyContext> {
  const hit = keys.fresh(keyHash);
  const key = hit ? hit.key : await keys.get(keyHash);
  if (!key) throw new GatewayError("invalid_api_key", "The API key is not valid.");
  if (key.revoked) throw new GatewayError("revoked_api_key", "The API key has been revoked.");
  return key;
}

/** Bearer authentication: 401 for a missing, malformed, unknown or revoked key; 503 if it cannot be checked. */
export function authenticate(keys: KeyCache) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const secret = secretOf(req.headers);
    if (typeof secret !== "string") return next(secret);
    const keyHash = hashKey(secret);
    const admit = (key: KeyContext | undefined): void => {
      if (!key) return next(new GatewayError("invalid_api_key", "The API key is not valid."));
      if (key.revoked) return next(new GatewayError("revoked_api_key", "The API key has been revoked."));
      const l = requestOf(res);
      l.key = key;
      l.keyHash = keyHash;
      next();
    };
    // A fresh cached answer (the usual case) continues in this turn; otherwise after the lookup.
    const span = startSpan(requestOf(res), "gateway.authenticate");
    const cached = keys.fresh(keyHash);
    if (cached) {
      span?.setAttribute("gateway.key_cache", "hit");
      span?.end();
      return admit(cached.key);
    }
    if (!span) return void keys.get(keyHash).then(admit, (err: unknown) => next(err));
    span.setAttribute("gateway.key_cache", "miss");
    withSpan(span, () => keys.get(keyHash)).then(
      (key) => {
        span.end();
        admit(key);
      },
      (err: unknown) => {
        endWithError(span, err);
        next(err);
      },
    );
  };
}
