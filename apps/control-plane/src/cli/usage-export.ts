import { usageBasis } from "@gateway/events";
import type { UsageRecord } from "@gateway/proto";

/**
 * The columns of `gatewayctl usage export`, in order: one row (CSV) or object (JSONL) per usage
 * record. Units: token counts are tokens, money is integer minor credit units (1 credit = 1,000,000),
 * prices are minor units per million tokens, times are ISO-8601 UTC with milliseconds. Documented
 * in docs/billing.md ("Usage export"); scripts rely on the names and the order, so a new column goes last.
 */
export const USAGE_COLUMNS = [
  "request_id",
  "org_id",
  "key_id",
  "created_at",
  "recorded_at",
  "model",
  "route",
  "provider",
  "upstream_model",
  "status",
  "stream",
  "estimated",
  "duration_ms",
  "input_tokens",
  "cached_input_tokens",
  "cache_creation_input_tokens",
  "output_tokens",
  "reasoning_tokens",
  "input_price_minor_per_mtok",
  "output_price_minor_per_mtok",
  "cost_minor",
  "journal_txn_id",
  "line_items",
  "provider_cost_minor",
  "attempts",
  "basis",
  "route_pin",
  "end_user",
  "project_id",
  "tags",
  "catalog_version",
  "external_customer_id",
  "service_tier",
  "refunded_minor",
  "guardrails",
  "feed_seq",
  "error_code",
] as const;

export type UsageFormat = "csv" | "jsonl";
type Row = Record<(typeof USAGE_COLUMNS)[number], string | number | boolean | unknown[]>;

/** A usage record as one export row (also the `usage` of a feed line): the columns' names, typed values. */
export function usageRow(r: UsageRecord): Row {
  return {
    request_id: r.request_id,
    org_id: r.org_id,
    key_id: r.key_id,
    created_at: new Date(r.created_at_ms).toISOString(),
    recorded_at: new Date(r.recorded_at_ms).toISOString(),
    model: r.model,
    route: r.route,
    provider: r.provider,
    upstream_model: r.upstream_model,
    status: r.status,
    stream: r.stream,
    estimated: r.estimated,
    duration_ms: r.duration_ms,
    input_tokens: r.input_tokens,
    cached_input_tokens: r.cached_input_tokens,
    cache_creation_input_tokens: r.cache_creation_input_tokens,
    output_tokens: r.output_tokens,
    reasoning_tokens: r.reasoning_tokens,
    input_price_minor_per_mtok: r.input_price_minor_per_mtok,
    output_price_minor_per_mtok: r.output_price_minor_per_mtok,
    cost_minor: r.cost_minor,
    journal_txn_id: r.journal_txn_id,
    line_items: JSON.parse(r.line_items_json || "[]") as unknown[],
    provider_cost_minor: r.provider_cost_minor,
    attempts: JSON.parse(r.attempts_json || "[]") as unknown[],
    // A ledger before the field answers "".
    basis: usageBasis(r.basis, r.estimated),
    // Cache-warm routing: hit, new, moved; "" when the request was not pinned (or a ledger before it).
    route_pin: r.route_pin ?? "",
    // Attribution (docs/billing.md, "Budgets"); "" and [] for records without it (or from before it).
    end_user: r.end_user ?? "",
    project_id: r.project_id ?? "",
    tags: r.tags ?? [],
    // The catalog version whose prices were applied (0: a record from before it).
    catalog_version: r.catalog_version,
    // Commercial metadata and adjustments (docs/billing.md): "" / 0 from a ledger before them.
    external_customer_id: r.external_customer_id ?? "",
    service_tier: r.service_tier ?? "",
    refunded_minor: r.refunded_minor ?? 0,
    guardrails: JSON.parse(r.guardrails_json || "[]") as unknown[],
    feed_seq: r.feed_seq ?? 0,
    // A refusal record's code (a request refused before routing, cost 0); "" for every other record.
    error_code: r.error_code ?? "",
  };
}

/** RFC 4180: a field with a comma, a double quote, CR or LF is quoted, its quotes doubled. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The CSV header line (CRLF-terminated, as RFC 4180 has it). */
export const CSV_HEADER = `${USAGE_COLUMNS.join(",")}\r\n`;

/** One record as a CSV line (line items and attempts as compact JSON arrays in one field each) or a JSON line (nested). */
export function formatRecord(r: UsageRecord, format: UsageFormat): string {
  const o = usageRow(r);
  if (format === "jsonl") return `${JSON.stringify(o)}\n`;
  return `${USAGE_COLUMNS.map((c) => {
    const v = o[c];
    return csvField(Array.isArray(v) ? JSON.stringify(v) : String(v));
  }).join(",")}\r\n`;
}
