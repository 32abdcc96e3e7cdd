import { setTimeout as sleep } from "node:timers/promises";
import { GatewayError } from "@gateway/errors";
import { usageBasis } from "@gateway/events";
import type { GetUsageRequest, UsageRecord } from "@gateway/proto";
import type { LedgerContext } from "../context.js";
import type { UsageRow } from "../db/schema.js";

const POLL_MS = 25;
/** How long a lookup gives the watermark to pass it before answering usage_pending, ms. */
const SETTLE_MAX_MS = 1_000;

/**
 * A record's attempts, whole: the stored array, or the one attempt billed as the record says,
 * rebuilt from the record and its attempt_outcome and attempt_ms (consumer/apply-usage.ts).
 */
export function attemptsOf(r: UsageRow): unknown[] {
  if (r.attempt_outcome === null) return r.attempts ?? [];
  return [
    {
      attempt: 1,
      provider: r.provider,
      upstream_model: r.upstream_model,
      status: 200,
      outcome: r.attempt_outcome,
      input_tokens: r.input_tokens,
      output_tokens: r.output_tokens,
      estimated: r.estimated,
      cost_minor: r.cost_minor,
      provider_cost_minor: r.provider_cost_minor ?? r.cost_minor,
      payer: "caller",
      duration_ms: r.attempt_ms ?? 0,
      cached_input_tokens: r.cached_input_tokens,
      cache_creation_input_tokens: r.cache_creation_input_tokens,
      reasoning_tokens: r.reasoning_tokens,
      ...(r.service_tier ? { service_tier: r.service_tier } : {}),
    },
  ];
}

/**
 * The wire form of a usage record (GetUsage, ExportUsage, the feed). `extra`: what the record's own
 * row does not hold (refunds of it, the organization's external customer id), for the reads that
 * look them up.
 */
export function toRecord(r: UsageRow, extra: { refundedMinor?: number; externalCustomerId?: string } = {}): UsageRecord {
  return {
    request_id: r.request_id,
    org_id: r.org_id,
    key_id: r.key_id,
    model: r.model,
    route: r.route,
    provider: r.provider,
    upstream_model: r.upstream_model,
    input_tokens: r.input_tokens,
    output_tokens: r.output_tokens,
    cached_input_tokens: r.cached_input_tokens,
    cache_creation_input_tokens: r.cache_creation_input_tokens,
    reasoning_tokens: r.reasoning_tokens,
    estimated: r.estimated,
    // NULL for records before it, and for events of data-planes (or applies of ledgers) before it.
    basis: usageBasis(r.basis, r.estimated),
    catalog_version: r.catalog_version ?? 0,
    route_pin: r.route_pin ?? "",
    end_user: r.end_user ?? "",
    project_id: r.project_id ?? "",
    tags: r.tags ?? [],
    cost_minor: r.cost_minor,
    created_at_ms: r.created_at.getTime(),
    stream: r.stream,
    input_price_minor_per_mtok: r.input_price_minor_per_mtok,
    output_price_minor_per_mtok: r.output_price_minor_per_mtok,
    line_items_json: JSON.stringify(r.line_items),
    guardrails_json: JSON.stringify(r.guardrails ?? []),
    status: r.status,
    duration_ms: r.duration_ms,
    journal_txn_id: r.journal_txn_id ?? "",
    recorded_at_ms: r.recorded_at.getTime(),
    attempts_json: JSON.stringify(attemptsOf(r)),
    provider_cost_minor: r.provider_cost_minor ?? r.cost_minor,
    feed_seq: Number(r.feed_seq ?? 0),
    service_tier: r.service_tier ?? "",
    refunded_minor: extra.refundedMinor ?? 0,
    external_customer_id: extra.externalCustomerId ?? "",
    error_code: r.error_code ?? "",
    error_message: r.error_message ?? "",
  };
}

/**
 * One usage record within an organization. Another organization's record is "not found", the
 * same answer as a missing one. A record not applied yet is waited for, briefly and bounded; past
 * that, `usage_pending` while the consumer has not applied everything published before the
 * question, `not_found` once it has.
 */
export function getUsage(ctx: LedgerContext) {
  return async (req: GetUsageRequest): Promise<UsageRecord> => {
    if (!req.request_id || !req.org_id) throw new GatewayError("invalid_request", "request_id and org_id are required");
    const askedAt = Date.now();
    const deadline = askedAt + Math.min(Math.max(0, req.wait_ms), ctx.config.usageWaitMaxMs);
    for (;;) {
      // Another organization's record reads as missing. Every month's partition has a request id index.
      const row = await ctx.db.selectFrom("usage_records").selectAll().where("request_id", "=", req.request_id).where("org_id", "=", req.org_id).executeTakeFirst();
      if (row) return toRecord(row);
      if (Date.now() + POLL_MS > deadline) break;
      await sleep(POLL_MS);
    }
    // Not there. If everything published before the question was applied, it never will be (a
    // request answered before it was asked had its usage acknowledged by then). Under steady load
    // the consumer is a few milliseconds behind "now" at any instant, so give the watermark a
    // moment to pass the question; past that the consumer is really behind and the record may be
    // on its way.
    const settleBy = Date.now() + SETTLE_MAX_MS;
    for (;;) {
      await ctx.watermark.refresh().catch(() => undefined);
      const caughtUp = ctx.watermark.appliedThrough >= askedAt;
      // Read again after the refresh: the record may have been applied since the last read.
      // Another organization's record reads as missing. Every month's partition has a request id index.
      const row = await ctx.db.selectFrom("usage_records").selectAll().where("request_id", "=", req.request_id).where("org_id", "=", req.org_id).executeTakeFirst();
      if (row) return toRecord(row);
      if (caughtUp) throw new GatewayError("not_found", `No usage record for request '${req.request_id.slice(0, 80)}'.`);
      if (Date.now() >= settleBy) break;
      await sleep(POLL_MS * 2);
    }
    const through = ctx.watermark.appliedThrough;
    const behind = through > 0 ? `${Math.ceil((Date.now() - through) / 1000)} s` : "an unknown time";
    throw new GatewayError("usage_pending", `The usage of request '${req.request_id.slice(0, 80)}' is not recorded yet: billing is behind (usage is applied up to ${behind} ago). Retry shortly.`, {
      retry_after_s: 1,
    });
  };
}
