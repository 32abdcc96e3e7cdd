import { hash } from "node:crypto";
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

/** Bearer authentication: 401 for a missing, malformed, unknown or revoked key; 503 if it cannot be checked. */
export function authenticate(keys: KeyCache) {
  return (req: Request, res: Response, next: NextFunction): void => {
    const header = req.headers.authorization;
    // The Anthropic SDK sends its key as x-api-key; accept it on every route.
    const xApiKey = req.headers["x-api-key"];
    let secret: string | undefined;
    if (typeof header === "string" && header.length > 0) {
      const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
      if (!m) return next(new GatewayError("invalid_api_key", "The Authorization header must be 'Bearer <API key>'."));
      secret = m[1];
    } else if (typeof xApiKey === "string" && xApiKey.length > 0) {
      secret = xApiKey.trim();
    }
    if (!secret) {
      return next(new GatewayError("missing_api_key", "No API key provided. Send 'Authorization: Bearer sk-gateway-…'."));
    }
    if (!KEY_SHAPE.test(secret)) {
      return next(new GatewayError("invalid_api_key", "The API key is malformed: gateway keys start with 'sk-gateway-'."));
    }
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
