/** Messages of the control-plane's ControlService and AdminService (proto/gateway/control/v1/control.proto), but the console's (console-messages.ts). */

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
  /**
   * A reasoning model: it may think before and between its visible tokens and may not stream that
   * thinking. Independent of `reasoning_price_minor_per_mtok` (reasoning is billed at the output
   * price when that is absent). False (or absent) = not a reasoning model.
   */
  reasoning?: boolean;
  /**
   * The fastest the model's provider can generate, output tokens per second (reasoning included), an
   * upper bound: bounds the hidden reasoning of a stream that ended without the provider's usage
   * (this rate × the time the provider had the request). 0 (or absent) = not declared.
   */
  max_output_tokens_per_second?: number;
  /**
   * Most prompt tokens one PDF page can cost, tokens (Anthropic and OpenAI bill each page as an
   * image plus its text, ~1,500–3,000; Gemini 258). 0 (or absent) = not declared: the model takes no PDFs.
   */
  max_input_tokens_per_pdf_page?: number;
  /**
   * Most prompt tokens one second of video or audio sent as a file part can cost, tokens per second
   * (Gemini: 263 a second of video with its audio, 32 of audio). 0 (or absent) = not declared: the
   * model takes no video or audio files.
   */
  max_input_tokens_per_media_second?: number;
  /**
   * Most prompt tokens one media part given by URL whose size the gateway cannot read (a video or
   * document URL, a YouTube link, for providers that fetch it themselves) can cost, tokens: the
   * provider's own limit for one part. 0 (or absent) = not declared: the model takes no such URLs.
   */
  max_input_tokens_per_url_part?: number;
  /**
   * Most prompt tokens the results of one web search bring into the prompt, tokens (billed as input
   * beside the per-search fee). 0 (or absent) = not declared: the model offers no web search.
   */
  max_input_tokens_per_web_search?: number;
  /**
   * Prompt tokens the provider adds itself when a request offers tools (Anthropic's tool-use system
   * prompt), tokens: a fixed addition the hold covers. 0 (or absent) = none.
   */
  tool_prompt_tokens?: number;
  /** Anthropic betas forwarded for this model (exact, or a prefix ending in `*`); others are dropped. */
  anthropic_betas?: string[];
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
  /** The catalog version the job was priced on (0 or absent: a data-plane before it); its usage event names it. */
  catalog_version?: number;
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
