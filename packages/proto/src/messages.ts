/**
 * TypeScript shapes of the proto messages as @grpc/proto-loader produces them with
 * {@link LOADER_OPTIONS} (snake_case kept, int64 as number, defaults filled). Units are documented
 * in the .proto files under proto/.
 */

import type {
  ConsoleApplyCatalogRequest,
  ConsoleAuditEntry,
  ConsoleAuditPage,
  ConsoleCatalog,
  ConsoleCreateKeyRequest,
  ConsoleInviteMemberRequest,
  ConsoleListAuditRequest,
  ConsoleListOrgsRequest,
  ConsoleGrantTopUpRequest,
  TopUpGrant,
  ConsoleMember,
  ConsoleMembers,
  ConsoleModels,
  ConsoleRecordAuditRequest,
  ConsoleRemoveMemberRequest,
  ConsoleRevokeKeyRequest,
  ConsoleSession,
  ConsoleSessionRequest,
  ConsoleSetBudgetRequest,
  CreateSignInLinkRequest,
  RedeemSignInLinkRequest,
  RemoveConsoleMemberRequest,
  SignInLink,
  StartOidcSessionRequest,
} from "./console-messages.js";
import type {
  ApiKey,
  ApplyCatalogRequest,
  ApplyCatalogResponse,
  AuthenticateKeyRequest,
  AuthenticateKeyResponse,
  CatalogSnapshot,
  ClaimVideoJobsRequest,
  ClaimVideoJobsResponse,
  CreateKeyRequest,
  CreateOrgRequest,
  CreatedKey,
  EnableMcpServersRequest,
  EnableMcpServersResponse,
  EnableModelsRequest,
  GetCatalogRequest,
  GetGuardrailsRequest,
  GetTrialPolicyRequest,
  GetVideoJobRequest,
  Guardrails,
  ListKeysRequest,
  ListKeysResponse,
  ListMcpToolPinsRequest,
  ListMcpToolPinsResponse,
  ListOrgsRequest,
  ListOrgsResponse,
  McpToolPin,
  McpToolRef,
  Org,
  ReportMcpToolsRequest,
  ReportMcpToolsResponse,
  RevokeKeyRequest,
  SetGuardrailsRequest,
  SetOrgBudgetRequest,
  SetOrgTrialRequest,
  SetTrialPolicyRequest,
  TrialPolicy,
  UpdateVideoJobRequest,
  VideoJob,
} from "./control-messages.js";
import type {
  AcquireLeaseRequest,
  CostReportRequest,
  CostReportResponse,
  Credits,
  ExportUsageRequest,
  GetCreditsRequest,
  GetUsageRequest,
  GuardrailCountsRequest,
  GuardrailCountsResponse,
  Lease,
  ListHoldsRequest,
  ListHoldsResponse,
  ListUsageRequest,
  ListUsageResponse,
  OrgBalancesRequest,
  OrgBalancesResponse,
  ProviderHealthRequest,
  ProviderHealthResponse,
  ReleaseLeaseRequest,
  SpendSeriesRequest,
  SpendSeriesResponse,
  TopUpRequest,
  TopUpResponse,
  UsagePage,
  UsageRecord,
} from "./ledger-messages.js";

/**
 * The response of a server-streaming method (`returns (stream T)`): servers implement it as an
 * async iterable of messages, clients read it as one. Phantom, for typing only.
 */
export interface ServerStream<T> {
  readonly __serverStreamOf: T;
}

export * from "./control-messages.js";
export * from "./console-messages.js";
export * from "./ledger-messages.js";

/** Method name → [request, response] of each service; drives the typed client and server. */
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
  ConsoleGrantTopUp: [ConsoleGrantTopUpRequest, TopUpGrant];
  ConsoleGetCatalog: [ConsoleSessionRequest, ConsoleCatalog];
  ConsoleApplyCatalog: [ConsoleApplyCatalogRequest, ConsoleCatalog];
};
export type LedgerServiceMethods = {
  AcquireLease: [AcquireLeaseRequest, Lease];
  ReleaseLease: [ReleaseLeaseRequest, Lease];
  GetUsage: [GetUsageRequest, UsageRecord];
  GetCredits: [GetCreditsRequest, Credits];
  TopUp: [TopUpRequest, TopUpResponse];
  TopUpWithGrant: [TopUpRequest, TopUpResponse];
  ListHolds: [ListHoldsRequest, ListHoldsResponse];
  ExportUsage: [ExportUsageRequest, ServerStream<UsagePage>];
  CostReport: [CostReportRequest, CostReportResponse];
  SpendSeries: [SpendSeriesRequest, SpendSeriesResponse];
  ListUsage: [ListUsageRequest, ListUsageResponse];
  OrgBalances: [OrgBalancesRequest, OrgBalancesResponse];
  ProviderHealth: [ProviderHealthRequest, ProviderHealthResponse];
  GuardrailCounts: [GuardrailCountsRequest, GuardrailCountsResponse];
};
