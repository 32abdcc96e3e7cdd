import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import type { DataPlaneContext } from "../context.js";

/** GET /v1/trial-policy: public, served from the cached policy. */
export function trialPolicy(ctx: DataPlaneContext) {
  return (_req: Request, res: Response): void => {
    const p = ctx.catalog.trialPolicy;
    if (!p) throw new GatewayError("service_unavailable", "The trial policy is not available yet; retry shortly.", { retry_after_s: 1 });
    res.setHeader("cache-control", "public, max-age=60");
    res.json({
      version: p.version,
      scope: p.scope,
      allowed_models: p.allowed_models,
      unlock_topup_minor: p.unlock_topup_minor,
      policy_hash: p.policy_hash,
    });
  };
}
