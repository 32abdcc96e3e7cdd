import type { ProviderKind, VideoSpec } from "@gateway/proto";
import type { ColumnType, Generated, Selectable } from "kysely";

export interface OrganizationsTable {
  id: string;
  name: string;
  in_trial: Generated<boolean>;
  /** Spend cap per calendar month (UTC), minor credit units; 0 = none. */
  monthly_budget_minor: Generated<number>;
  /** An output limit above the model's: clamped (default) or refused (docs/agents.md). */
  output_limit: ColumnType<"clamp" | "strict", "clamp" | "strict" | undefined, "clamp" | "strict">;
  created_at: ColumnType<Date, Date | undefined, never>;
  /** IANA time zone ('UTC' by default): budget windows start at its midnight. */
  time_zone: ColumnType<string, string | undefined, string>;
  /** The window of monthly_budget_minor (the organization's cap, whatever its window). */
  budget_window: ColumnType<BudgetWindow, BudgetWindow | undefined, BudgetWindow>;
  /** Where a request's end user is read: '' (no end-user budgets), 'body' or 'header'. */
  end_user_source: ColumnType<EndUserSource, EndUserSource | undefined, EndUserSource>;
  /** Every end user's cap without a limit of its own, minor credit units; 0 = none. */
  end_user_budget_minor: ColumnType<number, number | undefined, number>;
  end_user_budget_window: ColumnType<BudgetWindow, BudgetWindow | undefined, BudgetWindow>;
}

/** When a budget's spend starts again from 0: at midnight in the organization's time zone (weeks on Monday), or never. */
export type BudgetWindow = "day" | "week" | "month" | "none";
export type EndUserSource = "" | "body" | "header";

export interface ApiKeysTable {
  id: string;
  org_id: string;
  name: string;
  /** Lower-case hex SHA-256 of the secret; the secret is never stored. */
  key_hash: string;
  prefix: string;
  routes: string[];
  models: string[];
  /** MCP tools the key may call (`server/tool`, `server/*`); empty = all its organization may use. */
  mcp_tools: ColumnType<string[], string[] | undefined, string[]>;
  rpm_limit: Generated<number>;
  tpm_limit: Generated<number>;
  created_at: ColumnType<Date, Date | undefined, never>;
  revoked_at: Date | null;
  /** The key's own cap, minor credit units (0 = none), and its window. */
  budget_minor: ColumnType<number, number | undefined, number>;
  budget_window: ColumnType<BudgetWindow, BudgetWindow | undefined, BudgetWindow>;
  /** A project of the key's organization; null = none. */
  project_id: ColumnType<string | null, string | null | undefined, string | null>;
  /** Kept on every record of the key's requests. */
  tags: ColumnType<string[], string[] | undefined, string[]>;
}

/** Keys grouped under a cap of their own. */
export interface ProjectsTable {
  /** `proj_…` */
  id: string;
  org_id: string;
  /** Unique within the organization. */
  name: string;
  /** Minor credit units; 0 = none. */
  budget_minor: ColumnType<number, number | undefined, number>;
  budget_window: ColumnType<BudgetWindow, BudgetWindow | undefined, BudgetWindow>;
  created_at: ColumnType<Date, Date | undefined, never>;
}

/** A named end user's own limit (at most 1,000 per organization), over the organization's end-user window. */
export interface EndUserBudgetsTable {
  org_id: string;
  end_user: string;
  /** Minor credit units; 0 = no cap for this end user. */
  limit_minor: number;
}

export interface ProvidersTable {
  code: string;
  kind: ProviderKind;
  base_url: string;
  credential_ref: string;
  auth_header: ColumnType<string, string | undefined, string>;
  /** Connections per data-plane replica to the origin; 0 = the data-plane's default. */
  max_connections: ColumnType<number, number | undefined, number>;
  http2: ColumnType<boolean, boolean | undefined, boolean>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ModelsTable {
  id: string;
  status: "draft" | "published";
  routes: string[];
  context_window: number;
  max_output_tokens: number;
  input_price_minor_per_mtok: number;
  output_price_minor_per_mtok: number;
  /** Per-image prices: [{size, quality, price_minor}]. */
  image_prices: ColumnType<Array<{ size: string; quality: string; price_minor: number }>, string | undefined, string>;
  /** Video models: the VideoSpec (kind, durations, resolutions, aspect ratios, prices); null otherwise. */
  video: ColumnType<VideoSpec | null, string | null | undefined, string | null>;
  /** Most prompt tokens one image part can cost. */
  max_input_tokens_per_image: ColumnType<number, number | undefined, number>;
  /** Most prompt tokens one audio part can cost; 0 = the part's bytes. */
  max_input_tokens_per_audio: ColumnType<number, number | undefined, number>;
  /** Image models: size used when a request names none ('' = none). */
  default_image_size: ColumnType<string, string | undefined, string>;
  /** Minor units per million prompt-cache reads; null = the input price. */
  cached_input_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  /** Minor units per million prompt-cache writes; null = the input price. */
  cache_write_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  /** Minor units per million reasoning tokens; null = the output price. */
  reasoning_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  web_search_price_minor: ColumnType<number | null, number | null | undefined, number | null>;
  /** A prompt above this many tokens is priced at the long-context prices; 0 = none. */
  long_context_threshold_tokens: ColumnType<number, number | undefined, number>;
  long_context_input_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  long_context_output_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  /** Per million audio prompt (completion) tokens; null = no audio. */
  audio_input_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  audio_output_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  /** A reasoning model (may think before and between visible tokens without streaming it). */
  reasoning: ColumnType<boolean, boolean | undefined, boolean>;
  /** The fastest its provider generates, output tokens per second (reasoning included); 0 = not declared. */
  max_output_tokens_per_second: ColumnType<number, number | undefined, number>;
  /** Media bounds, prompt tokens: most per PDF page, per second of video/audio file, per URL part, per web search; 0 = not declared. */
  max_input_tokens_per_pdf_page: ColumnType<number, number | undefined, number>;
  max_input_tokens_per_media_second: ColumnType<number, number | undefined, number>;
  max_input_tokens_per_url_part: ColumnType<number, number | undefined, number>;
  max_input_tokens_per_web_search: ColumnType<number, number | undefined, number>;
  tool_prompt_tokens: ColumnType<number, number | undefined, number>;
  anthropic_betas: ColumnType<string[], string[] | undefined, string[]>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface DeploymentsTable {
  id: Generated<number>;
  model_id: string;
  provider_code: string;
  upstream_model: string;
  priority: number;
  weight: number;
  /** What the provider charges the operator, minor units per million input tokens; null = the model's price. */
  cost_input_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  /** Per million output tokens; null = the model's price. */
  cost_output_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  /** Per million cached-input, cache-write and reasoning tokens; null = the model's price for the class, scaled as the input (output) cost price. */
  cost_cached_input_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  cost_cache_write_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
  cost_reasoning_price_minor_per_mtok: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface OrgModelsTable {
  org_id: string;
  model_id: string;
}

export interface CatalogStateTable {
  id: number;
  version: number;
}

export interface TrialPolicyTable {
  id: number;
  version: number;
  scope: string;
  allowed_models: string[];
  unlock_topup_minor: number;
}

export interface VideoJobsTable {
  id: string;
  org_id: string;
  key_id: string;
  model: string;
  provider: string;
  upstream_model: string;
  upstream_job_id: string;
  upstream_json: ColumnType<unknown, string, string>;
  request_json: ColumnType<unknown, string, string>;
  status: string;
  progress: number;
  error_code: string;
  error_message: string;
  outputs_json: ColumnType<unknown, string | undefined, string>;
  duration_s: number;
  resolution: string;
  audio: boolean;
  price_minor_per_second: number;
  max_cost_minor: number;
  lease_id: string;
  cost_minor: number;
  settled: boolean;
  trace_id: string;
  /** Input guardrail outcomes at creation: [{plugin, name?, outcome}]. */
  guardrails: ColumnType<unknown, string | undefined, string>;
  claimed_by: string | null;
  claim_until: Date | null;
  created_at: ColumnType<Date, Date | undefined, never>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
  refreshed_at: ColumnType<Date, Date | undefined, Date>;
  completed_at: Date | null;
  /** The caller's Idempotency-Key; null = none. */
  idempotency_key: ColumnType<string | null, string | null | undefined, string | null>;
  /** SHA-256 hex of the create request the key was first used with. */
  request_hash: ColumnType<string, string | undefined, string>;
  /** The submit's upstream attempts (usage.v1 attempts). */
  attempts: ColumnType<unknown, string | undefined, string>;
  /** The catalog version the job was priced on; null: created before it was recorded. */
  catalog_version: ColumnType<number | null, number | null | undefined, number | null>;
  /** The current claim's token (a claim is one holder's, once: not re-taken by it while it runs); null when unclaimed. */
  claim_token: ColumnType<string | null, string | null | undefined, string | null>;
  /** When the job's hold is next due for renewal (unsettled jobs; ClaimVideoHolds). */
  hold_due_at: ColumnType<Date, Date | undefined, Date>;
  /** The budgets the job is held under: [{lease_id, scope, limit_minor, window, time_zone, alert_pcts?}]. */
  budgets: ColumnType<unknown, string | undefined, string>;
  /** Who the job is attributed to: {end_user?, project_id?, tags?}. */
  attribution: ColumnType<unknown, string | undefined, string>;
}

export interface GuardrailRulesTable {
  org_id: string;
  document: string;
  rules: ColumnType<unknown, string, string>;
  version: number;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface ConsoleMembersTable {
  id: string;
  /** null for an operator. */
  org_id: string | null;
  email: string;
  role: "admin" | "billing" | "viewer" | "operator";
  created_at: ColumnType<Date, Date | undefined, never>;
  removed_at: Date | null;
  /** The OpenID Connect account (issuer, subject) of the member's first single sign-on; later ones must match it. */
  oidc_issuer: ColumnType<string | null, string | null | undefined, string | null>;
  oidc_subject: ColumnType<string | null, string | null | undefined, string | null>;
}

export interface ConsoleSigninLinksTable {
  /** Hex SHA-256 of the link's token (the token itself is never stored). */
  token_hash: string;
  member_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  expires_at: Date;
  used_at: Date | null;
}

export interface ConsoleSessionsTable {
  token_hash: string;
  member_id: string;
  created_at: ColumnType<Date, Date | undefined, never>;
  last_seen_at: ColumnType<Date, Date | undefined, Date>;
  expires_at: Date;
  ended_at: Date | null;
}

export interface ConsoleAuditTable {
  id: Generated<string>;
  at: ColumnType<Date, Date | undefined, never>;
  /** The organization acted on; null for a change of the whole gateway (the catalog). */
  org_id: string | null;
  actor_id: string;
  actor_email: string;
  action: string;
  target: string;
  detail: ColumnType<unknown, string, never>;
}

/** The console's settings: one row (id 1), set by operators. */
export interface ConsoleSettingsTable {
  id: number;
  /** Decimals every amount is shown with, 0 to 6. */
  money_decimals: number;
  /** The credit's unit as people read it ("credits", "USD"). */
  money_unit: string;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface McpServersTable {
  name: string;
  url: string;
  credential_ref: string;
  auth_header: string;
  /** [{name, price_minor}]: the tools the gateway exposes, each with its price per call (0 = unpriced). */
  tools: ColumnType<Array<{ name: string; price_minor: number }>, string, string>;
  /** One upstream session per organization or per key (docs/mcp.md, "Upstream sessions"). */
  session_scope: ColumnType<"org" | "key", "org" | "key" | undefined, "org" | "key">;
  identity_header: ColumnType<string, string | undefined, string>;
  /** Org id → credential ref. */
  org_credential_refs: ColumnType<Record<string, string>, string | undefined, string>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

export interface OrgMcpServersTable {
  org_id: string;
  server: string;
}

export interface McpToolPinsTable {
  server: string;
  tool: string;
  /** The approved definition and its digest; null for a tool new at a server whose tools were pinned, until an operator approves it. */
  definition: ColumnType<unknown, string | null, string | null>;
  digest: string | null;
  approved_at: ColumnType<Date | null, Date | null | undefined, Date | null>;
  approved_by: string | null;
  pending_definition: ColumnType<unknown, string | null, string | null>;
  pending_digest: string | null;
  pending_since: Date | null;
  /** A pin made before pins covered every field: until then, one served with only other fields added is re-pinned without approval. */
  five_fields_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
}

/** The names of every tool an MCP server listed in its first report (docs/mcp.md, "Pinned definitions"). */
export interface McpServerBaselinesTable {
  server: string;
  tools: string[];
  recorded_at: ColumnType<Date, Date | undefined, Date>;
}

/** An organization's alert thresholds and webhook (docs/billing.md, "Alerts"). */
export interface OrgAlertSettingsTable {
  org_id: string;
  /** Percentages of each budget's cap, ascending. */
  budget_pcts: ColumnType<number[], number[] | undefined, number[]>;
  /** Balances, minor credit units, descending (bigint[]: read as strings). */
  balance_minor: ColumnType<Array<number | string>, number[] | undefined, number[]>;
  webhook_url: string | null;
  /** The signing secret sealed by alerts/secrets.ts (`gws1.…`); never the secret itself. */
  webhook_secret_sealed: string | null;
  /** `whsec_` and four characters of the secret, to tell secrets apart. */
  webhook_secret_prefix: string | null;
  secret_created_at: Date | null;
  /** The secret a rotation replaced, sealed, and until when it still signs beside the new one (a receiver moves over meanwhile). */
  previous_secret_sealed: ColumnType<string | null, string | null | undefined, string | null>;
  previous_secret_until: ColumnType<Date | null, Date | null | undefined, Date | null>;
  updated_at: ColumnType<Date, Date | undefined, Date>;
}

/** Every alert the ledger announced, once per id, with its webhook delivery (alerts/outbox.ts). */
export interface AlertsTable {
  id: string;
  org_id: string;
  kind: "budget" | "balance";
  /** The LedgerAlertV1 as announced. */
  event: ColumnType<unknown, string, never>;
  /** The webhook's JSON body: the same bytes at every attempt. */
  body: string;
  created_at: Date;
  received_at: ColumnType<Date, Date | undefined, never>;
  state: "pending" | "delivered" | "failed" | "no_webhook";
  attempts: ColumnType<number, number | undefined, number>;
  next_attempt_at: Date | null;
  last_attempt_at: Date | null;
  last_status: number | null;
  last_error: string | null;
  delivered_at: Date | null;
}

export interface ControlDb {
  projects: ProjectsTable;
  end_user_budgets: EndUserBudgetsTable;
  mcp_tool_pins: McpToolPinsTable;
  mcp_server_baselines: McpServerBaselinesTable;
  mcp_servers: McpServersTable;
  org_mcp_servers: OrgMcpServersTable;
  console_audit: ConsoleAuditTable;
  console_settings: ConsoleSettingsTable;
  console_sessions: ConsoleSessionsTable;
  console_members: ConsoleMembersTable;
  console_signin_links: ConsoleSigninLinksTable;
  guardrail_rules: GuardrailRulesTable;
  video_jobs: VideoJobsTable;
  organizations: OrganizationsTable;
  api_keys: ApiKeysTable;
  providers: ProvidersTable;
  models: ModelsTable;
  deployments: DeploymentsTable;
  org_models: OrgModelsTable;
  catalog_state: CatalogStateTable;
  trial_policy: TrialPolicyTable;
  org_alert_settings: OrgAlertSettingsTable;
  alerts: AlertsTable;
}

export type OrgRow = Selectable<OrganizationsTable>;
export type KeyRow = Selectable<ApiKeysTable>;
export type ProjectRow = Selectable<ProjectsTable>;
export type ModelRow = Selectable<ModelsTable>;
