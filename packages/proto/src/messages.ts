/**
 * TypeScript shapes of the proto messages as @grpc/proto-loader produces them with
 * {@link LOADER_OPTIONS} (snake_case kept, int64 as number, defaults filled). Units are documented
 * in the .proto files under proto/.
 */

/**
 * The response of a server-streaming method (`returns (stream T)`): servers implement it as an
 * async iterable of messages, clients read it as one. Phantom, for typing only.
 */
export interface ServerStream<T> {
  readonly __serverStreamOf: T;
}

export interface AuthenticateKeyRequest {
  key_hash: string;
}
export interface KeyContext {
  key_id: string;
  org_id: string;
  org_name: string;
  revoked: boolean;
  routes: string[];
  model_allowlist: string[];
  org_enabled_models: string[];
  org_in_trial: boolean;
  rpm_limit: number;
  tpm_limit: number;
  monthly_budget_minor: number;
  display_prefix: string;
  /** Normalized guardrail rules of the org (JSON array; "" or "[]" = none). */
  guardrails_json: string;
  guardrails_version: number;
  /** MCP servers the organization may use (absent from an older control-plane: none). */
  org_mcp_servers?: string[];
  /** The key's MCP tool allowlist (`server/tool`, `server/*`); empty or absent = every tool of those servers. */
  mcp_tool_allowlist?: string[];
}
export interface AuthenticateKeyResponse {
  found: boolean;
  key: KeyContext | null;
}
export interface GetCatalogRequest {
  known_version: number;
}
export interface Deployment {
  provider: string;
  upstream_model: string;
  priority: number;
  weight: number;
  /** What the provider charges the operator per million input tokens, minor units; absent = the model's price. */
  cost_input_price_minor_per_mtok?: number;
  /** What the provider charges the operator per million output tokens, minor units; absent = the model's price. */
  cost_output_price_minor_per_mtok?: number;
}
export interface Model {
  id: string;
  status: string;
  routes: string[];
  context_window: number;
  max_output_tokens: number;
  input_price_minor_per_mtok: number;
  output_price_minor_per_mtok: number;
  deployments: Deployment[];
  image_prices: ImagePrice[];
  /** Video models only (null otherwise). */
  video: VideoSpec | null;
  /** Most prompt tokens one image part can cost, tokens. */
  max_input_tokens_per_image: number;
  /** Most prompt tokens one audio part can cost; 0 = count the part's bytes, tokens. */
  max_input_tokens_per_audio: number;
  /** Image models: the size used when a request names none ("" = none). */
  default_image_size: string;
  /** Minor credit units per million prompt tokens read from the prompt cache; absent = the input price. */
  cached_input_price_minor_per_mtok?: number;
  /** Minor credit units per million prompt tokens written to the prompt cache; absent = the input price. */
  cache_write_price_minor_per_mtok?: number;
  /** Minor credit units per million reasoning tokens (part of the output); absent = the output price. */
  reasoning_price_minor_per_mtok?: number;
  /** Minor units per web search (a server tool billed per use); absent: web search not offered. */
  web_search_price_minor?: number;
  /** A prompt above this many tokens prices the whole request at the long-context prices; 0 (or absent) = none. */
  long_context_threshold_tokens?: number;
  /** Above the threshold, per million input tokens (cache prices scale alike); absent = the input price. */
  long_context_input_price_minor_per_mtok?: number;
  /** Above the threshold, per million output tokens (reasoning scales alike); absent = the output price. */
  long_context_output_price_minor_per_mtok?: number;
  /** Per million audio prompt tokens; absent = the model takes no audio input (a 400). */
  audio_input_price_minor_per_mtok?: number;
  /** Per million audio completion tokens; absent = the model produces no audio (a 400). */
  audio_output_price_minor_per_mtok?: number;
}
export interface VideoPrice {
  resolution: string;
  price_minor_per_second: number;
  audio_price_minor_per_second: number;
}
export interface VideoSpec {
  kind: string;
  durations: number[];
  resolutions: string[];
  aspect_ratios: string[];
  audio: boolean;
  max_images: number;
  prices: VideoPrice[];
}
export interface VideoJob {
  id: string;
  org_id: string;
  key_id: string;
  model: string;
  provider: string;
  upstream_model: string;
  upstream_job_id: string;
  upstream_json: string;
  request_json: string;
  status: string;
  progress: number;
  error_code: string;
  error_message: string;
  outputs_json: string;
  duration_s: number;
  price_minor_per_second: number;
  max_cost_minor: number;
  lease_id: string;
  cost_minor: number;
  settled: boolean;
  trace_id: string;
  created_at_ms: number;
  updated_at_ms: number;
  completed_at_ms: number;
  refreshed_at_ms: number;
  resolution: string;
  audio: boolean;
  guardrails_json: string;
  /** The caller's Idempotency-Key ("" = none): one job per (org, key). */
  idempotency_key: string;
  /** SHA-256 hex of the create request the key was first used with. */
  request_hash: string;
  /** The submit's upstream attempts (JSON array of usage.v1 attempts), carried into the job's usage event; absent: none recorded. */
  attempts_json?: string;
}
export interface GetVideoJobRequest {
  org_id: string;
  job_id: string;
  /** With job_id empty: the org's job created with this Idempotency-Key. */
  idempotency_key?: string;
}
export interface ClaimVideoJobsRequest {
  holder: string;
  job_id: string;
  stale_after_ms: number;
  claim_ms: number;
  limit: number;
}
export interface ClaimVideoJobsResponse {
  jobs: VideoJob[];
}
export interface UpdateVideoJobRequest {
  job_id: string;
  holder: string;
  status: string;
  progress: number;
  error_code: string;
  error_message: string;
  outputs_json: string;
  cost_minor: number;
  settled: boolean;
  upstream_json: string;
  duration_s: number;
  release_claim: boolean;
}
export interface ImagePrice {
  size: string;
  quality: string;
  price_minor: number;
}
export interface Provider {
  code: string;
  kind: string;
  base_url: string;
  credential_ref: string;
  auth_header: string;
  /** Connections (HTTP/2: sessions) per data-plane replica to the provider's origin; 0 = the default. */
  max_connections: number;
  /** HTTP/2 by ALPN to an https origin. */
  http2: boolean;
}
export interface CatalogSnapshot {
  version: number;
  not_modified: boolean;
  models: Model[];
  providers: Provider[];
  /** Absent from an older control-plane: none. */
  mcp_servers?: McpServer[];
}
/** An MCP server of the catalog (docs/mcp.md). */
export interface McpServer {
  name: string;
  url: string;
  credential_ref: string;
  auth_header: string;
  tools: McpTool[];
}
export interface McpTool {
  name: string;
  price_minor: number;
  /** The approved (pinned) definition as JSON and its digest; "" before the first was seen. */
  definition_json?: string;
  digest?: string;
}
export interface ReportMcpToolsRequest {
  server: string;
  tools: Array<{ name: string; definition_json: string }>;
}
export interface ReportMcpToolsResponse {
  pinned: number;
  changed: number;
}
export interface McpToolPin {
  server: string;
  tool: string;
  digest: string;
  definition_json: string;
  approved_at_ms: number;
  approved_by: string;
  pending_digest: string;
  pending_definition_json: string;
  pending_since_ms: number;
}
export interface McpToolRef {
  server: string;
  tool: string;
}
export interface ListMcpToolPinsRequest {
  server: string;
}
export interface ListMcpToolPinsResponse {
  pins: McpToolPin[];
}
export interface EnableMcpServersRequest {
  org: string;
  servers: string[];
}
export interface EnableMcpServersResponse {
  org_id: string;
  servers: string[];
}
export type GetTrialPolicyRequest = Record<string, never>;
export interface TrialPolicy {
  version: number;
  scope: string;
  allowed_models: string[];
  unlock_topup_minor: number;
  policy_hash: string;
}

export interface Org {
  id: string;
  name: string;
  enabled_models: string[];
  in_trial: boolean;
  created_at_ms: number;
  monthly_budget_minor: number;
}
export interface CreateOrgRequest {
  name: string;
}
export type ListOrgsRequest = Record<string, never>;
export interface ListOrgsResponse {
  orgs: Org[];
}
export interface CreateKeyRequest {
  org: string;
  routes: string[];
  models: string[];
  name: string;
  rpm_limit?: number;
  tpm_limit?: number;
  /** MCP tools the key may call (`server/tool`, `server/*`); empty = all its organization may use. */
  mcp_tools?: string[];
}
export interface ApiKey {
  id: string;
  org_id: string;
  name: string;
  prefix: string;
  routes: string[];
  models: string[];
  revoked: boolean;
  created_at_ms: number;
  revoked_at_ms: number;
  rpm_limit: number;
  tpm_limit: number;
  mcp_tools?: string[];
}
export interface CreatedKey {
  key: ApiKey | null;
  secret: string;
}
export interface RevokeKeyRequest {
  key_id: string;
}
export interface ListKeysRequest {
  org: string;
}
export interface ListKeysResponse {
  keys: ApiKey[];
}
export interface EnableModelsRequest {
  org: string;
  models: string[];
}
export interface ApplyCatalogRequest {
  document_json: string;
}
export interface ApplyCatalogResponse {
  version: number;
  providers: number;
  models: number;
  mcp_servers: number;
}
export interface SetOrgTrialRequest {
  org: string;
  in_trial: boolean;
}
export interface SetOrgBudgetRequest {
  org: string;
  monthly_budget_minor: number;
}
export interface SetTrialPolicyRequest {
  allowed_models: string[];
  unlock_topup_minor: number;
}

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
export interface CreateSignInLinkRequest {
  /** Org id or name; "" for an operator. */
  org: string;
  email: string;
  role: "admin" | "billing" | "viewer" | "operator";
}
export interface ConsoleMember {
  id: string;
  /** "" for an operator. */
  org_id: string;
  email: string;
  role: string;
}
export interface SignInLink {
  /** Shown once; only its SHA-256 is stored. */
  token: string;
  expires_at_ms: number;
  member: ConsoleMember;
}
export interface RedeemSignInLinkRequest {
  token: string;
}
export interface ConsoleSession {
  /** Set only when the session starts; only its SHA-256 is stored. */
  token: string;
  member: ConsoleMember;
  expires_at_ms: number;
  idle_timeout_ms: number;
}
export interface ConsoleSessionRequest {
  token: string;
}
/** A person the console signed in at an OpenID Connect issuer: its verified address (and the organization it chose, id or name, or ""). */
export interface StartOidcSessionRequest {
  email: string;
  issuer: string;
  subject: string;
  org: string;
}
export interface ConsoleCreateKeyRequest {
  token: string;
  routes: string[];
  models: string[];
  name: string;
  /** Requests (tokens) per minute for the key; 0 or absent = no limit of its own. */
  rpm_limit?: number;
  tpm_limit?: number;
}
/** One console action: who (the member's address as it was), what, on which organization ("" = the whole gateway). */
export interface ConsoleAuditEntry {
  id: string;
  at_ms: number;
  org_id: string;
  actor_email: string;
  /** key_created, key_revoked, member_invited, member_removed, budget_set, top_up, catalog_applied. */
  action: string;
  target: string;
  detail_json: string;
}
export interface ConsoleListAuditRequest {
  token: string;
  /** Operators only: one organization's entries ("" = all). */
  org: string;
  cursor: string;
  limit: number;
}
export interface ConsoleAuditPage {
  entries: ConsoleAuditEntry[];
  /** "" on the last page. */
  next_cursor: string;
}
export interface ConsoleRecordAuditRequest {
  token: string;
  org: string;
  action: string;
  target: string;
  detail_json: string;
}
export interface ConsoleListOrgsRequest {
  token: string;
  /** Part of an organization's id or name; "" = the newest. */
  query: string;
}
export interface ConsoleCatalogChange {
  kind: "provider" | "model" | "mcp_server";
  id: string;
  change: "added" | "changed";
  /** [{field, before, after}] for a change. */
  fields_json: string;
}
export interface ConsoleCatalog {
  version: number;
  /** The catalog document (ConsoleGetCatalog only). */
  document_json: string;
  /** What the document changes (ConsoleApplyCatalog). */
  changes: ConsoleCatalogChange[];
  applied: boolean;
}
export interface ConsoleApplyCatalogRequest {
  token: string;
  document_json: string;
  /** The version the operator reviewed the difference against; another version is a 409. */
  base_version: number;
  /** Only validate and answer the difference. */
  dry_run: boolean;
}
export interface ConsoleSetBudgetRequest {
  token: string;
  monthly_budget_minor: number;
}
export interface ConsoleModel {
  id: string;
  routes: string[];
  context_window: number;
  max_output_tokens: number;
  input_price_minor_per_mtok: number;
  output_price_minor_per_mtok: number;
  cached_input_price_minor_per_mtok: number;
  reasoning_price_minor_per_mtok: number;
  web_search_price_minor: number;
}
export interface ConsoleModels {
  models: ConsoleModel[];
}
export interface ConsoleMembers {
  members: ConsoleMember[];
}
export interface ConsoleInviteMemberRequest {
  token: string;
  email: string;
  role: "admin" | "billing" | "viewer";
}
export interface ConsoleRemoveMemberRequest {
  token: string;
  email: string;
}
export interface ConsoleRevokeKeyRequest {
  token: string;
  key_id: string;
}
export interface RemoveConsoleMemberRequest {
  org: string;
  email: string;
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

/** Method name → [request, response] of each service; drives the typed client and server. */
export interface SetGuardrailsRequest {
  org: string;
  document: string;
}
export interface GetGuardrailsRequest {
  org: string;
}
export interface Guardrails {
  org_id: string;
  version: number;
  rules_json: string;
  document: string;
  rules: number;
}
export type ControlServiceMethods = {
  AuthenticateKey: [AuthenticateKeyRequest, AuthenticateKeyResponse];
  GetCatalog: [GetCatalogRequest, CatalogSnapshot];
  GetTrialPolicy: [GetTrialPolicyRequest, TrialPolicy];
  CreateVideoJob: [VideoJob, VideoJob];
  GetVideoJob: [GetVideoJobRequest, VideoJob];
  ClaimVideoJobs: [ClaimVideoJobsRequest, ClaimVideoJobsResponse];
  UpdateVideoJob: [UpdateVideoJobRequest, VideoJob];
  ReportMcpTools: [ReportMcpToolsRequest, ReportMcpToolsResponse];
};
export type AdminServiceMethods = {
  SetGuardrails: [SetGuardrailsRequest, Guardrails];
  GetGuardrails: [GetGuardrailsRequest, Guardrails];
  CreateOrg: [CreateOrgRequest, Org];
  ListOrgs: [ListOrgsRequest, ListOrgsResponse];
  CreateKey: [CreateKeyRequest, CreatedKey];
  RevokeKey: [RevokeKeyRequest, ApiKey];
  ListKeys: [ListKeysRequest, ListKeysResponse];
  EnableModels: [EnableModelsRequest, Org];
  EnableMcpServers: [EnableMcpServersRequest, EnableMcpServersResponse];
  ListMcpToolPins: [ListMcpToolPinsRequest, ListMcpToolPinsResponse];
  ApproveMcpTool: [McpToolRef, McpToolPin];
  ApplyCatalog: [ApplyCatalogRequest, ApplyCatalogResponse];
  SetOrgTrial: [SetOrgTrialRequest, Org];
  SetOrgBudget: [SetOrgBudgetRequest, Org];
  SetTrialPolicy: [SetTrialPolicyRequest, TrialPolicy];
  CreateSignInLink: [CreateSignInLinkRequest, SignInLink];
  RedeemSignInLink: [RedeemSignInLinkRequest, ConsoleSession];
  GetConsoleSession: [ConsoleSessionRequest, ConsoleSession];
  EndConsoleSession: [ConsoleSessionRequest, ConsoleSession];
  RemoveConsoleMember: [RemoveConsoleMemberRequest, ConsoleMember];
  ConsoleListKeys: [ConsoleSessionRequest, ListKeysResponse];
  ConsoleCreateKey: [ConsoleCreateKeyRequest, CreatedKey];
  ConsoleRevokeKey: [ConsoleRevokeKeyRequest, ApiKey];
  ConsoleListMembers: [ConsoleSessionRequest, ConsoleMembers];
  ConsoleInviteMember: [ConsoleInviteMemberRequest, SignInLink];
  ConsoleRemoveMember: [ConsoleRemoveMemberRequest, ConsoleMember];
  ConsoleListModels: [ConsoleSessionRequest, ConsoleModels];
  ConsoleGetOrg: [ConsoleSessionRequest, Org];
  ConsoleSetBudget: [ConsoleSetBudgetRequest, Org];
  ConsoleGetGuardrails: [ConsoleSessionRequest, Guardrails];
  StartOidcSession: [StartOidcSessionRequest, ConsoleSession];
  ConsoleListAudit: [ConsoleListAuditRequest, ConsoleAuditPage];
  ConsoleRecordAudit: [ConsoleRecordAuditRequest, ConsoleAuditEntry];
  ConsoleListOrgs: [ConsoleListOrgsRequest, ListOrgsResponse];
  ConsoleGetCatalog: [ConsoleSessionRequest, ConsoleCatalog];
  ConsoleApplyCatalog: [ConsoleApplyCatalogRequest, ConsoleCatalog];
};
export type LedgerServiceMethods = {
  AcquireLease: [AcquireLeaseRequest, Lease];
  ReleaseLease: [ReleaseLeaseRequest, Lease];
  GetUsage: [GetUsageRequest, UsageRecord];
  GetCredits: [GetCreditsRequest, Credits];
  TopUp: [TopUpRequest, TopUpResponse];
  ListHolds: [ListHoldsRequest, ListHoldsResponse];
  ExportUsage: [ExportUsageRequest, ServerStream<UsagePage>];
  CostReport: [CostReportRequest, CostReportResponse];
  SpendSeries: [SpendSeriesRequest, SpendSeriesResponse];
  ListUsage: [ListUsageRequest, ListUsageResponse];
  OrgBalances: [OrgBalancesRequest, OrgBalancesResponse];
  ProviderHealth: [ProviderHealthRequest, ProviderHealthResponse];
  GuardrailCounts: [GuardrailCountsRequest, GuardrailCountsResponse];
};
