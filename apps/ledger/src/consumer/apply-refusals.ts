import { sql, type Kysely } from "@gateway/db";
import type { RefusalEventV1 } from "@gateway/events";
import type { LedgerDb } from "../db/schema.js";
import { pgText } from "./delivery.js";

/**
 * Stores refusal records (`usage.v1.refused`) as usage records of cost 0 with their status, error
 * code and message, each request id once (usage_dedup decides, as for billed records), in one
 * statement (apply_refusals, migrations 20261223000000-refusal-records and
 * 20261229000000-refusal-rollups) that counts each record it stores in its hourly rollup (a request
 * and an error, under its model or UNRESOLVED_MODEL: src/rollups/refusals.ts) and touches no
 * balance, lease, budget, journal or feed. Returns the request ids it stored (the rest were there).
 */
export async function applyRefusals(db: Kysely<LedgerDb>, events: readonly RefusalEventV1[]): Promise<Set<string>> {
  if (events.length === 0) return new Set();
  const records = events.map((ev) => ({
    request_id: ev.request_id,
    org_id: ev.org_id,
    key_id: ev.key_id,
    // The caller's words: made storable here too (a data-plane already does), so no refusal is ever a Postgres error.
    model: pgText(ev.model, 256),
    route: ev.route,
    status: ev.status,
    error_code: ev.error_code,
    error_message: pgText(ev.message, 256),
    stream: ev.stream,
    created_at_ms: ev.created_at_ms,
    duration_ms: ev.duration_ms,
    // Absent from data-planes before it: NULL, rolled up as unresolved (what such a data-plane sent may be any name).
    model_resolved: ev.model_resolved ?? null,
  }));
  const r = await sql<{ applied: string[] }>`SELECT apply_refusals(${JSON.stringify(records)}::jsonb) AS applied`.execute(db);
  return new Set(r.rows[0]!.applied);
}
