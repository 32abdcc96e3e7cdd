import type { Request, Response } from "express";
import type { DataPlaneContext } from "../context.js";
import { admit, type Admission, type AdmissionRequest } from "../admission/admit.js";
import type { RouteKind } from "../catalog/visibility.js";
import type { Capability } from "../providers/index.js";
import { stage } from "../http/tracing.js";

/**
 * A model route, declared once: how its body is validated, what admission needs to know about it
 * (model, maximum-cost bound, guardrail texts, context check), the adapter capability it needs, and
 * how its attempts run, are billed and answered. The next route (the Responses API) plugs in by
 * writing one of these.
 */
export interface RouteSpec<B, C extends Capability> {
  route: RouteKind;
  capability: C;
  /** Validates the body (a zod schema through parseBody: 400 naming the field). */
  parse(raw: unknown): B;
  /**
   * What admission needs: model id, the cost bound, guardrail texts, context-check texts, network
   * checks. May validate the body against the catalog (the model's own limits) before anything else.
   */
  admission(body: B, res: Response, ctx: DataPlaneContext): Omit<AdmissionRequest<C>, "route" | "capability">;
  /** The attempts over the planned deployments (pipeline/attempts.ts), the usage event, the answer. */
  execute(ctx: DataPlaneContext, req: Request, res: Response, call: { body: B } & Admission<C>): Promise<void>;
}

/**
 * The runner: the stages in the order a reader expects. The request id, the decoded body and
 * authentication come from the middleware before it; then validation, admission (resolve model →
 * output limit → plan deployments → rate limit → context pre-check → input guardrails → network
 * checks → hold; admission/admit.ts), the route's attempts, output guardrails, headers, usage event
 * and settlement (its execute), and finally the reservation released of whatever was not billed.
 * Each stage is a span when the request is traced (http/tracing.ts), and only then.
 */
export function handle<B, C extends Capability>(ctx: DataPlaneContext, spec: RouteSpec<B, C>) {
  return async (req: Request, res: Response): Promise<void> => {
    const body = stage(res, "validate", () => spec.parse(req.body));
    const admission = await stage(res, "admission", () => admit(ctx, res, { route: spec.route, capability: spec.capability, ...spec.admission(body, res, ctx) }));
    try {
      await stage(res, "execute", () => spec.execute(ctx, req, res, { body, ...admission }));
    } finally {
      admission.reservation.settle(0); // no-op when already settled with the actual cost
    }
  };
}
