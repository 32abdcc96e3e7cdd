import type { Request, Response } from "express";
import { GatewayError } from "@gateway/errors";
import { usageBasis } from "@gateway/events";
import type { DataPlaneContext } from "../context.js";
import { requestIdTime, type Authenticated } from "../http/request-context.js";

/** Ids younger than this may still have their usage event on the way. */
const RECENT_MS = 120_000;

/**
 * GET /v1/usage/{requestId}: one request's usage and cost, only within the key's organization
 * (another organization's id is the same 404 as a missing one). A lookup made right after the
 * response waits briefly for the ledger to apply the event instead of answering 404.
 */
export function usage(ctx: DataPlaneContext) {
  return async (req: Request, res: Response, { key }: Authenticated): Promise<void> => {
    const id = String(req.params.requestId ?? "");
    const born = requestIdTime(id);
    if (born === undefined) throw new GatewayError("not_found", `No usage record for request '${id.slice(0, 64)}'.`);
    // A video job is billed when it finishes, whenever that is: its record may be on the way.
    const wait = Date.now() - born < RECENT_MS || id.startsWith("vid_") ? ctx.config.usageWaitMs : 0;
    // The ledger's errors arrive as callers should see them (usage_pending with Retry-After,
    // not_found, service_unavailable when it is away), so they pass through unchanged.
    const r = await ctx.ledger.GetUsage({ request_id: id, org_id: key.org_id, wait_ms: wait }, { timeoutMs: ctx.config.ledgerTimeoutMs + wait });
    res.json({
      object: "usage",
      request_id: r.request_id,
      model: r.model,
      created: Math.floor(r.created_at_ms / 1000),
      route: r.route,
      provider: r.provider,
      stream: r.stream,
      status: r.status,
      usage: {
        input_tokens: r.input_tokens,
        output_tokens: r.output_tokens,
        total_tokens: r.input_tokens + r.output_tokens,
        cached_input_tokens: r.cached_input_tokens,
        cache_creation_input_tokens: r.cache_creation_input_tokens,
        reasoning_tokens: r.reasoning_tokens,
        estimated: r.estimated,
        // How the counts were obtained (docs/billing.md); a ledger before the field answers "".
        basis: usageBasis(r.basis, r.estimated),
      },
      price: { input_minor_per_mtok: r.input_price_minor_per_mtok, output_minor_per_mtok: r.output_price_minor_per_mtok },
      line_items: r.line_items_json ? (JSON.parse(r.line_items_json) as unknown[]) : [],
      guardrails: r.guardrails_json ? (JSON.parse(r.guardrails_json) as unknown[]) : [],
      cost_credits_minor: r.cost_minor,
      // The catalog version whose prices were applied (null for records from before it, or a ledger before it).
      catalog_version: r.catalog_version || null,
      // Cache-warm routing: whether the turn landed on its session's pinned deployment (null: no pin).
      route_pin: r.route_pin || null,
      // Whose spend it was (docs/billing.md, "Budgets"): null / [] when none.
      end_user: r.end_user || null,
      project_id: r.project_id || null,
      tags: r.tags ?? [],
      attempts: callerAttempts(r.attempts_json),
      // A request refused before routing (docs/billing.md, "Refusal records"): the error it was answered with; null otherwise.
      refusal: r.error_code ? { code: r.error_code, message: r.error_message } : null,
    });
  };
}

/**
 * The request's upstream attempts as its caller sees them (docs/billing.md, "Attempts and who
 * pays"): what the operator pays the provider is the operator's business and stays out.
 */
function callerAttempts(json: string): unknown[] {
  const attempts = json ? (JSON.parse(json) as Array<Record<string, unknown>>) : [];
  return attempts.map(({ provider_cost_minor: _, ...a }) => a);
}
