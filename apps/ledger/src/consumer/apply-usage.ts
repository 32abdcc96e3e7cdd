import { sql, type Kysely } from "@gateway/db";
import type { UsageEventV1 } from "@gateway/events";
import type { LedgerDb } from "../db/schema.js";
import { newId } from "../ids.js";

/** What one batch did: the request ids it applied (the others were already applied). */
export interface BatchResult {
  applied: Set<string>;
  /** The journal posting carrying the batch's cost, or undefined when nothing cost anything. */
  postingId: string | undefined;
}

/** One usage record as apply_usage_batch reads it (jsonb_to_recordset: by name, flat). */
function record(ev: UsageEventV1): string {
  return JSON.stringify({
    request_id: ev.request_id,
    org_id: ev.org_id,
    key_id: ev.key_id,
    model: ev.model,
    route: ev.route,
    provider: ev.provider,
    upstream_model: ev.upstream_model,
    lease_id: ev.lease_id,
    input_tokens: ev.usage.input_tokens,
    output_tokens: ev.usage.output_tokens,
    cached_input_tokens: ev.usage.cached_input_tokens,
    cache_creation_input_tokens: ev.usage.cache_creation_input_tokens ?? 0,
    reasoning_tokens: ev.usage.reasoning_tokens ?? 0,
    estimated: ev.usage.estimated,
    // As the event says it; absent (a data-plane before it) stays NULL, read as estimated or reported (usageBasis).
    basis: ev.usage.basis,
    // The catalog version whose prices the data-plane applied; absent (a data-plane before it) stays NULL.
    catalog_version: ev.catalog_version,
    // Whether an agent session's turn hit its pinned deployment; absent (no pin, or a data-plane before it) stays NULL.
    route_pin: ev.route_pin,
    // The provider's service tier of the served attempt; absent stays NULL.
    service_tier: ev.service_tier,
    // Budgets and attribution (docs/billing.md, "Budgets"); absent stays NULL.
    end_user: ev.end_user,
    project_id: ev.project_id,
    tags: ev.tags,
    budget_leases: ev.budget_leases,
    cost_minor: ev.cost_minor,
    input_price_minor_per_mtok: ev.input_price_minor_per_mtok,
    output_price_minor_per_mtok: ev.output_price_minor_per_mtok,
    stream: ev.stream,
    status: ev.status,
    duration_ms: ev.duration_ms,
    // Direct callers may pass events that were not parsed (the schema's defaults not filled in).
    line_items: ev.line_items ?? [],
    guardrails: ev.guardrails ?? [],
    created_at_ms: ev.created_at_ms,
    ...attemptCosts(ev),
  });
}

/**
 * The attempts and what they cost the operator: the provider's charge for every attempt, and the
 * part nobody was billed for. An event without attempts (a data-plane before them) cost the
 * provider's charge at the catalog's price. The usual case, one attempt billed to the caller
 * exactly as the record says (the event's served_attempt, or a single such attempt), is stored as
 * what the record does not say (attempt_outcome, attempt_ms):
 * a whole attempt per record made Postgres spend a third more per event (measured when attempts
 * were added: git log -S attempt_outcome);
 * attemptsOf (rpc/get-usage.ts) gives it back whole.
 */
function attemptCosts(ev: UsageEventV1): { attempts?: unknown; attempt_outcome?: string; attempt_ms?: number; provider_cost_minor: number; absorbed_minor: number } {
  const served = ev.served_attempt;
  if (served) return { attempt_outcome: served.outcome, attempt_ms: served.duration_ms, provider_cost_minor: served.provider_cost_minor, absorbed_minor: 0 };
  const attempts = ev.attempts ?? [];
  if (attempts.length === 0) return { provider_cost_minor: ev.cost_minor, absorbed_minor: 0 };
  const only = attempts[0]!;
  if (
    attempts.length === 1 &&
    only.attempt === 1 &&
    only.payer === "caller" &&
    only.status === 200 &&
    only.provider === ev.provider &&
    only.upstream_model === ev.upstream_model &&
    only.input_tokens === ev.usage.input_tokens &&
    only.output_tokens === ev.usage.output_tokens &&
    only.estimated === ev.usage.estimated &&
    only.cost_minor === ev.cost_minor &&
    // Its split and tier, when it states them, are the record's (attemptsOf gives them back from it).
    (only.cached_input_tokens ?? ev.usage.cached_input_tokens) === ev.usage.cached_input_tokens &&
    (only.cache_creation_input_tokens ?? ev.usage.cache_creation_input_tokens ?? 0) === (ev.usage.cache_creation_input_tokens ?? 0) &&
    (only.reasoning_tokens ?? ev.usage.reasoning_tokens ?? 0) === (ev.usage.reasoning_tokens ?? 0) &&
    (only.service_tier ?? ev.service_tier) === ev.service_tier
  ) {
    return { attempt_outcome: only.outcome, attempt_ms: only.duration_ms, provider_cost_minor: only.provider_cost_minor, absorbed_minor: 0 };
  }
  let provider = 0;
  let absorbed = 0;
  for (const a of attempts) {
    provider += a.provider_cost_minor;
    if (a.payer === "operator") absorbed += a.provider_cost_minor;
  }
  return { attempts, provider_cost_minor: provider, absorbed_minor: absorbed };
}

/**
 * Applies a batch of usage events in one transaction with set-based statements: one multi-row
 * insert of usage records that skips request ids already applied (the primary key is the
 * idempotency boundary, so duplicates inside the batch, across batches and across ledger replicas
 * change nothing), then per-lease and per-organization aggregates of what was new, the monthly
 * spend, and one journal posting.
 *
 * Lock order, the same in every transaction of the ledger: usage records (by request id), monthly
 * spend (by org, month; only batches write it), accounts (by org id), leases (by lease id). Each
 * phase locks in sorted order and finishes before the next begins, so concurrent batches and lease
 * RPCs never deadlock. Account rows are locked last, right before the two updates that end the
 * transaction, so a hot organization's row is held for those and the commit only.
 *
 * The statements run in Postgres, in the function apply_usage_batch (migration
 * 20261125000000-apply-usage-function): one round trip, and one statement's implicit transaction,
 * per batch. With a few events per batch (moderate load), a BEGIN, seven statements parsed and
 * planned each time and a COMMIT cost more CPU, here and in Postgres, than the events themselves.
 */
export async function applyUsageBatch(db: Kysely<LedgerDb>, events: readonly UsageEventV1[]): Promise<BatchResult> {
  return applyRecords(db, batchRecords(events));
}

/** A batch's records as apply_usage_batch reads them: a JSON array, each request id once. */
export interface BatchRecords {
  json: string;
  count: number;
}

/** The batch's records (written ahead of its transaction, while the batch before it applies). */
export function batchRecords(events: readonly UsageEventV1[]): BatchRecords {
  // Duplicates inside the batch: the first occurrence wins (a redelivery carries the same event).
  const seen = new Set<string>();
  let records = "";
  for (const ev of events) {
    if (seen.has(ev.request_id)) continue;
    seen.add(ev.request_id);
    records += records ? `,${record(ev)}` : `[${record(ev)}`;
  }
  return { json: `${records}]`, count: seen.size };
}

/** Applies records written by batchRecords in one transaction (applyUsageBatch). */
export async function applyRecords(db: Kysely<LedgerDb>, records: BatchRecords): Promise<BatchResult> {
  if (records.count === 0) return { applied: new Set(), postingId: undefined };
  const postingId = newId("post");
  const r = await sql<{ applied: string[]; posted: boolean }>`
    SELECT applied, posted FROM apply_usage_batch(${records.json}::jsonb, ${postingId}::text)`.execute(db);
  const row = r.rows[0]!;
  return { applied: new Set(row.applied), postingId: row.posted ? postingId : undefined };
}

/** Applies one event (a batch of one); false for a duplicate. */
export async function applyUsage(db: Kysely<LedgerDb>, ev: UsageEventV1): Promise<boolean> {
  return (await applyUsageBatch(db, [ev])).applied.size === 1;
}
