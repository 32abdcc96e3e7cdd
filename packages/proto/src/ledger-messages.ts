/** Messages of the ledger's LedgerService (proto/gateway/ledger/v1/ledger.proto). */

export interface AcquireLeaseRequest {
  org_id: string;
  lease_id: string;
  holder: string;
  amount_minor: number;
  min_amount_minor: number;
  ttl_ms: number;
  monthly_budget_minor?: number;
}
export interface Lease {
  lease_id: string;
  org_id: string;
  granted_minor: number;
  remaining_minor: number;
  expires_at_ms: number;
  status: string;
  holder: string;
  applied_minor: number;
  created_at_ms: number;
  available_after_minor: number;
}
export interface ReleaseLeaseRequest {
  lease_id: string;
  consumed_minor: number;
  /** The lease's organization (checked when set; a data-plane of the previous release sends none). */
  org_id: string;
  /** When set, must be the lease's holder. */
  holder?: string;
}
export interface GetUsageRequest {
  request_id: string;
  org_id: string;
  wait_ms: number;
}
export interface UsageRecord {
  request_id: string;
  org_id: string;
  key_id: string;
  model: string;
  route: string;
  provider: string;
  upstream_model: string;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  /** Of input_tokens: written to the provider's prompt cache. */
  cache_creation_input_tokens: number;
  /** Of output_tokens: reasoning tokens. */
  reasoning_tokens: number;
  estimated: boolean;
  cost_minor: number;
  created_at_ms: number;
  stream: boolean;
  input_price_minor_per_mtok: number;
  output_price_minor_per_mtok: number;
  line_items_json: string;
  guardrails_json: string;
  /** HTTP status the caller received. */
  status: number;
  /** Milliseconds. */
  duration_ms: number;
  /** `post_…`; "" when none. */
  journal_txn_id: string;
  /** Unix ms when the ledger applied the record. */
  recorded_at_ms: number;
  /** The upstream attempts, JSON (AttemptV1[] of @gateway/events); "[]" for records before attempts were kept. */
  attempts_json: string;
  /** What the provider charges the operator for all the attempts, minor units. */
  provider_cost_minor: number;
  /**
   * How the figures were obtained: reported, estimated, drained, bounded (UsageTokens.basis of
   * @gateway/events); "" from a ledger before it (read it with usageBasis).
   */
  basis: string;
  /** The catalog version whose prices were applied; 0 for records of data-planes before it. */
  catalog_version: number;
}
/** Window [from_ms, to_ms) in Unix milliseconds (by request receipt). */
export interface CostReportRequest {
  from_ms: number;
  to_ms: number;
}
export interface ProviderDayCost {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  provider: string;
  attempts: number;
  /** Attempts not served (failed, timeout). */
  unserved: number;
  provider_cost_minor: number;
  /** Of provider_cost_minor: nobody was billed for it. */
  absorbed_minor: number;
}
export interface OrgMargin {
  org_id: string;
  requests: number;
  billed_minor: number;
  provider_cost_minor: number;
  absorbed_minor: number;
  margin_minor: number;
}
export interface CostReportResponse {
  providers: ProviderDayCost[];
  orgs: OrgMargin[];
}

/** One organization's usage per UTC hour or day (proto SpendSeriesRequest). */
export interface SpendSeriesRequest {
  org_id: string;
  from_ms: number;
  to_ms: number;
  bucket: "hour" | "day";
  group_by: "model" | "key" | "";
}
export interface SpendPoint {
  bucket_start_ms: number;
  /** The model id or key id ("" without group_by). */
  group: string;
  requests: number;
  input_tokens: number;
  output_tokens: number;
  cached_input_tokens: number;
  cache_creation_input_tokens: number;
  reasoning_tokens: number;
  cost_minor: number;
  absorbed_minor: number;
}
export interface SpendSeriesResponse {
  points: SpendPoint[];
}
/** One page of an organization's request log, newest first (proto ListUsageRequest); empty/0 filters match any. */
export interface ListUsageRequest {
  org_id: string;
  key_id: string;
  model: string;
  route: string;
  status: number;
  from_ms: number;
  to_ms: number;
  limit: number;
  cursor: string;
}
export interface ListUsageResponse {
  records: UsageRecord[];
  /** "" on the last page. */
  next_cursor: string;
}
/** Several organizations' credits and their spend since from_ms (the operator's organization list). */
export interface OrgBalancesRequest {
  org_ids: string[];
  from_ms: number;
}
export interface OrgBalance {
  org_id: string;
  balance_minor: number;
  held_minor: number;
  month_spent_minor: number;
  /** Since from_ms (by the hourly rollups). */
  window_spent_minor: number;
  window_requests: number;
}
export interface OrgBalancesResponse {
  orgs: OrgBalance[];
}
/** Upstream attempts of every organization in [from_ms, to_ms), at most 24 hours. */
export interface ProviderHealthRequest {
  from_ms: number;
  to_ms: number;
}
export interface DeploymentHealth {
  provider: string;
  upstream_model: string;
  attempts: number;
  /** Attempts that failed (error, timeout, invalid answer), not those the client ended. */
  failures: number;
  timeouts: number;
  /** Of served attempts. */
  p50_ms: number;
  p95_ms: number;
  /** 0 when none failed. */
  last_failure_ms: number;
  /** Failures in a row among the latest attempts (up to 20). */
  failure_streak: number;
}
export interface ProviderHealthResponse {
  deployments: DeploymentHealth[];
}
/** How often each of an organization's guardrail rules fired in [from_ms, to_ms), at most 31 days. */
export interface GuardrailCountsRequest {
  org_id: string;
  from_ms: number;
  to_ms: number;
}
export interface GuardrailCount {
  plugin: string;
  name: string;
  outcome: string;
  count: number;
}
export interface GuardrailCountsResponse {
  counts: GuardrailCount[];
}
/** Window [from_ms, to_ms) in Unix milliseconds. */
export interface ExportUsageRequest {
  org_id: string;
  from_ms: number;
  to_ms: number;
}
export interface UsagePage {
  records: UsageRecord[];
}
export interface GetCreditsRequest {
  org_id: string;
}
export interface Credits {
  org_id: string;
  balance_minor: number;
  spent_minor: number;
  held_minor: number;
  topped_up_minor: number;
  month_spent_minor: number;
}
export interface TopUpRequest {
  org_id: string;
  amount_minor: number;
  idempotency_key: string;
  /** TopUpWithGrant: the control-plane's signed grant. */
  grant?: string;
}
export interface TopUpResponse {
  top_up_id: string;
  duplicate: boolean;
  credits: Credits | null;
}
export interface ListHoldsRequest {
  org_id: string;
}
export interface ListHoldsResponse {
  leases: Lease[];
}
