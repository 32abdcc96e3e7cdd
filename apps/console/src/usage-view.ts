import type { UsageRecord } from "@gateway/proto";
import { csvCell } from "./csv.js";

const parse = (json: string): unknown[] => {
  try {
    const v = JSON.parse(json || "[]") as unknown;
    return Array.isArray(v) ? v : [];
  } catch {
    return [];
  }
};

/**
 * A usage record as an organization's member sees it (as `GET /v1/usage/{id}` shows it): line
 * items, guardrail outcomes and attempts as arrays, and never what the providers charge the
 * operator (`provider_cost_minor`, the record's and each attempt's): that is the operator's margin.
 */
export function memberRecord(r: UsageRecord) {
  const { provider_cost_minor: _cost, line_items_json, guardrails_json, attempts_json, journal_txn_id: _txn, ...rest } = r;
  const attempts = parse(attempts_json).map((a) => {
    const { provider_cost_minor: _p, ...visible } = a as Record<string, unknown>;
    return visible;
  });
  return { ...rest, line_items: parse(line_items_json), guardrails: parse(guardrails_json), attempts };
}

/** The export's columns: what a member may see of each record (no provider cost). */
export const CSV_COLUMNS = [
  "request_id",
  "created_at",
  "key_id",
  "model",
  "route",
  "status",
  "stream",
  "input_tokens",
  "cached_input_tokens",
  "cache_creation_input_tokens",
  "output_tokens",
  "reasoning_tokens",
  "estimated",
  "cost_minor",
  "duration_ms",
  "error_code",
] as const;

/** A record as a line of the export. */
export const csvRow = (r: UsageRecord) => `${CSV_COLUMNS.map((c) => csvCell(c === "created_at" ? new Date(r.created_at_ms).toISOString() : r[c])).join(",")}\n`;
