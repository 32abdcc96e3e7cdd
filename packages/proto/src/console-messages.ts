/** Messages of the control-plane's console methods (AdminService's Console*, sign-in links and sessions; proto/gateway/control/v1/control.proto). */

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

export interface ConsoleGrantTopUpRequest {
  token: string;
  org_id: string;
  amount_minor: number;
  idempotency_key: string;
}
export interface TopUpGrant {
  grant: string;
  expires_at_ms: number;
}
