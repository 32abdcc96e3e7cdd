// Original file: ../../proto/gateway/control/v1/control.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AlertSettings as _gateway_control_v1_AlertSettings, AlertSettings__Output as _gateway_control_v1_AlertSettings__Output } from '../../../gateway/control/v1/AlertSettings.js';
import type { ApiKey as _gateway_control_v1_ApiKey, ApiKey__Output as _gateway_control_v1_ApiKey__Output } from '../../../gateway/control/v1/ApiKey.js';
import type { ApplyCatalogRequest as _gateway_control_v1_ApplyCatalogRequest, ApplyCatalogRequest__Output as _gateway_control_v1_ApplyCatalogRequest__Output } from '../../../gateway/control/v1/ApplyCatalogRequest.js';
import type { ApplyCatalogResponse as _gateway_control_v1_ApplyCatalogResponse, ApplyCatalogResponse__Output as _gateway_control_v1_ApplyCatalogResponse__Output } from '../../../gateway/control/v1/ApplyCatalogResponse.js';
import type { ConsoleApplyCatalogRequest as _gateway_control_v1_ConsoleApplyCatalogRequest, ConsoleApplyCatalogRequest__Output as _gateway_control_v1_ConsoleApplyCatalogRequest__Output } from '../../../gateway/control/v1/ConsoleApplyCatalogRequest.js';
import type { ConsoleApproveMcpToolRequest as _gateway_control_v1_ConsoleApproveMcpToolRequest, ConsoleApproveMcpToolRequest__Output as _gateway_control_v1_ConsoleApproveMcpToolRequest__Output } from '../../../gateway/control/v1/ConsoleApproveMcpToolRequest.js';
import type { ConsoleAuditEntry as _gateway_control_v1_ConsoleAuditEntry, ConsoleAuditEntry__Output as _gateway_control_v1_ConsoleAuditEntry__Output } from '../../../gateway/control/v1/ConsoleAuditEntry.js';
import type { ConsoleAuditPage as _gateway_control_v1_ConsoleAuditPage, ConsoleAuditPage__Output as _gateway_control_v1_ConsoleAuditPage__Output } from '../../../gateway/control/v1/ConsoleAuditPage.js';
import type { ConsoleBudgets as _gateway_control_v1_ConsoleBudgets, ConsoleBudgets__Output as _gateway_control_v1_ConsoleBudgets__Output } from '../../../gateway/control/v1/ConsoleBudgets.js';
import type { ConsoleCatalog as _gateway_control_v1_ConsoleCatalog, ConsoleCatalog__Output as _gateway_control_v1_ConsoleCatalog__Output } from '../../../gateway/control/v1/ConsoleCatalog.js';
import type { ConsoleCreateKeyRequest as _gateway_control_v1_ConsoleCreateKeyRequest, ConsoleCreateKeyRequest__Output as _gateway_control_v1_ConsoleCreateKeyRequest__Output } from '../../../gateway/control/v1/ConsoleCreateKeyRequest.js';
import type { ConsoleCreateProjectRequest as _gateway_control_v1_ConsoleCreateProjectRequest, ConsoleCreateProjectRequest__Output as _gateway_control_v1_ConsoleCreateProjectRequest__Output } from '../../../gateway/control/v1/ConsoleCreateProjectRequest.js';
import type { ConsoleGrantTopUpRequest as _gateway_control_v1_ConsoleGrantTopUpRequest, ConsoleGrantTopUpRequest__Output as _gateway_control_v1_ConsoleGrantTopUpRequest__Output } from '../../../gateway/control/v1/ConsoleGrantTopUpRequest.js';
import type { ConsoleGrantTraceLookupRequest as _gateway_control_v1_ConsoleGrantTraceLookupRequest, ConsoleGrantTraceLookupRequest__Output as _gateway_control_v1_ConsoleGrantTraceLookupRequest__Output } from '../../../gateway/control/v1/ConsoleGrantTraceLookupRequest.js';
import type { ConsoleInviteMemberRequest as _gateway_control_v1_ConsoleInviteMemberRequest, ConsoleInviteMemberRequest__Output as _gateway_control_v1_ConsoleInviteMemberRequest__Output } from '../../../gateway/control/v1/ConsoleInviteMemberRequest.js';
import type { ConsoleListAlertsRequest as _gateway_control_v1_ConsoleListAlertsRequest, ConsoleListAlertsRequest__Output as _gateway_control_v1_ConsoleListAlertsRequest__Output } from '../../../gateway/control/v1/ConsoleListAlertsRequest.js';
import type { ConsoleListAuditRequest as _gateway_control_v1_ConsoleListAuditRequest, ConsoleListAuditRequest__Output as _gateway_control_v1_ConsoleListAuditRequest__Output } from '../../../gateway/control/v1/ConsoleListAuditRequest.js';
import type { ConsoleListOrgsRequest as _gateway_control_v1_ConsoleListOrgsRequest, ConsoleListOrgsRequest__Output as _gateway_control_v1_ConsoleListOrgsRequest__Output } from '../../../gateway/control/v1/ConsoleListOrgsRequest.js';
import type { ConsoleMember as _gateway_control_v1_ConsoleMember, ConsoleMember__Output as _gateway_control_v1_ConsoleMember__Output } from '../../../gateway/control/v1/ConsoleMember.js';
import type { ConsoleMembers as _gateway_control_v1_ConsoleMembers, ConsoleMembers__Output as _gateway_control_v1_ConsoleMembers__Output } from '../../../gateway/control/v1/ConsoleMembers.js';
import type { ConsoleModels as _gateway_control_v1_ConsoleModels, ConsoleModels__Output as _gateway_control_v1_ConsoleModels__Output } from '../../../gateway/control/v1/ConsoleModels.js';
import type { ConsoleMoneyFormat as _gateway_control_v1_ConsoleMoneyFormat, ConsoleMoneyFormat__Output as _gateway_control_v1_ConsoleMoneyFormat__Output } from '../../../gateway/control/v1/ConsoleMoneyFormat.js';
import type { ConsoleOperatorOrgRequest as _gateway_control_v1_ConsoleOperatorOrgRequest, ConsoleOperatorOrgRequest__Output as _gateway_control_v1_ConsoleOperatorOrgRequest__Output } from '../../../gateway/control/v1/ConsoleOperatorOrgRequest.js';
import type { ConsoleOperatorOrgView as _gateway_control_v1_ConsoleOperatorOrgView, ConsoleOperatorOrgView__Output as _gateway_control_v1_ConsoleOperatorOrgView__Output } from '../../../gateway/control/v1/ConsoleOperatorOrgView.js';
import type { ConsoleRecordAuditRequest as _gateway_control_v1_ConsoleRecordAuditRequest, ConsoleRecordAuditRequest__Output as _gateway_control_v1_ConsoleRecordAuditRequest__Output } from '../../../gateway/control/v1/ConsoleRecordAuditRequest.js';
import type { ConsoleRemoveMemberRequest as _gateway_control_v1_ConsoleRemoveMemberRequest, ConsoleRemoveMemberRequest__Output as _gateway_control_v1_ConsoleRemoveMemberRequest__Output } from '../../../gateway/control/v1/ConsoleRemoveMemberRequest.js';
import type { ConsoleRevokeKeyRequest as _gateway_control_v1_ConsoleRevokeKeyRequest, ConsoleRevokeKeyRequest__Output as _gateway_control_v1_ConsoleRevokeKeyRequest__Output } from '../../../gateway/control/v1/ConsoleRevokeKeyRequest.js';
import type { ConsoleSession as _gateway_control_v1_ConsoleSession, ConsoleSession__Output as _gateway_control_v1_ConsoleSession__Output } from '../../../gateway/control/v1/ConsoleSession.js';
import type { ConsoleSessionRequest as _gateway_control_v1_ConsoleSessionRequest, ConsoleSessionRequest__Output as _gateway_control_v1_ConsoleSessionRequest__Output } from '../../../gateway/control/v1/ConsoleSessionRequest.js';
import type { ConsoleSetAlertSettingsRequest as _gateway_control_v1_ConsoleSetAlertSettingsRequest, ConsoleSetAlertSettingsRequest__Output as _gateway_control_v1_ConsoleSetAlertSettingsRequest__Output } from '../../../gateway/control/v1/ConsoleSetAlertSettingsRequest.js';
import type { ConsoleSetBudgetRequest as _gateway_control_v1_ConsoleSetBudgetRequest, ConsoleSetBudgetRequest__Output as _gateway_control_v1_ConsoleSetBudgetRequest__Output } from '../../../gateway/control/v1/ConsoleSetBudgetRequest.js';
import type { ConsoleSetEndUserBudgetRequest as _gateway_control_v1_ConsoleSetEndUserBudgetRequest, ConsoleSetEndUserBudgetRequest__Output as _gateway_control_v1_ConsoleSetEndUserBudgetRequest__Output } from '../../../gateway/control/v1/ConsoleSetEndUserBudgetRequest.js';
import type { ConsoleSetKeyBudgetRequest as _gateway_control_v1_ConsoleSetKeyBudgetRequest, ConsoleSetKeyBudgetRequest__Output as _gateway_control_v1_ConsoleSetKeyBudgetRequest__Output } from '../../../gateway/control/v1/ConsoleSetKeyBudgetRequest.js';
import type { ConsoleSetMoneyFormatRequest as _gateway_control_v1_ConsoleSetMoneyFormatRequest, ConsoleSetMoneyFormatRequest__Output as _gateway_control_v1_ConsoleSetMoneyFormatRequest__Output } from '../../../gateway/control/v1/ConsoleSetMoneyFormatRequest.js';
import type { ConsoleSetOrgBudgetsRequest as _gateway_control_v1_ConsoleSetOrgBudgetsRequest, ConsoleSetOrgBudgetsRequest__Output as _gateway_control_v1_ConsoleSetOrgBudgetsRequest__Output } from '../../../gateway/control/v1/ConsoleSetOrgBudgetsRequest.js';
import type { ConsoleSetProjectBudgetRequest as _gateway_control_v1_ConsoleSetProjectBudgetRequest, ConsoleSetProjectBudgetRequest__Output as _gateway_control_v1_ConsoleSetProjectBudgetRequest__Output } from '../../../gateway/control/v1/ConsoleSetProjectBudgetRequest.js';
import type { CreateKeyRequest as _gateway_control_v1_CreateKeyRequest, CreateKeyRequest__Output as _gateway_control_v1_CreateKeyRequest__Output } from '../../../gateway/control/v1/CreateKeyRequest.js';
import type { CreateOrgRequest as _gateway_control_v1_CreateOrgRequest, CreateOrgRequest__Output as _gateway_control_v1_CreateOrgRequest__Output } from '../../../gateway/control/v1/CreateOrgRequest.js';
import type { CreateProjectRequest as _gateway_control_v1_CreateProjectRequest, CreateProjectRequest__Output as _gateway_control_v1_CreateProjectRequest__Output } from '../../../gateway/control/v1/CreateProjectRequest.js';
import type { CreateSignInLinkRequest as _gateway_control_v1_CreateSignInLinkRequest, CreateSignInLinkRequest__Output as _gateway_control_v1_CreateSignInLinkRequest__Output } from '../../../gateway/control/v1/CreateSignInLinkRequest.js';
import type { CreatedKey as _gateway_control_v1_CreatedKey, CreatedKey__Output as _gateway_control_v1_CreatedKey__Output } from '../../../gateway/control/v1/CreatedKey.js';
import type { EnableMcpServersRequest as _gateway_control_v1_EnableMcpServersRequest, EnableMcpServersRequest__Output as _gateway_control_v1_EnableMcpServersRequest__Output } from '../../../gateway/control/v1/EnableMcpServersRequest.js';
import type { EnableMcpServersResponse as _gateway_control_v1_EnableMcpServersResponse, EnableMcpServersResponse__Output as _gateway_control_v1_EnableMcpServersResponse__Output } from '../../../gateway/control/v1/EnableMcpServersResponse.js';
import type { EnableModelsRequest as _gateway_control_v1_EnableModelsRequest, EnableModelsRequest__Output as _gateway_control_v1_EnableModelsRequest__Output } from '../../../gateway/control/v1/EnableModelsRequest.js';
import type { EndUserBudget as _gateway_control_v1_EndUserBudget, EndUserBudget__Output as _gateway_control_v1_EndUserBudget__Output } from '../../../gateway/control/v1/EndUserBudget.js';
import type { GetAlertSettingsRequest as _gateway_control_v1_GetAlertSettingsRequest, GetAlertSettingsRequest__Output as _gateway_control_v1_GetAlertSettingsRequest__Output } from '../../../gateway/control/v1/GetAlertSettingsRequest.js';
import type { GetCatalogDocumentRequest as _gateway_control_v1_GetCatalogDocumentRequest, GetCatalogDocumentRequest__Output as _gateway_control_v1_GetCatalogDocumentRequest__Output } from '../../../gateway/control/v1/GetCatalogDocumentRequest.js';
import type { GetCatalogDocumentResponse as _gateway_control_v1_GetCatalogDocumentResponse, GetCatalogDocumentResponse__Output as _gateway_control_v1_GetCatalogDocumentResponse__Output } from '../../../gateway/control/v1/GetCatalogDocumentResponse.js';
import type { GetGuardrailsRequest as _gateway_control_v1_GetGuardrailsRequest, GetGuardrailsRequest__Output as _gateway_control_v1_GetGuardrailsRequest__Output } from '../../../gateway/control/v1/GetGuardrailsRequest.js';
import type { Guardrails as _gateway_control_v1_Guardrails, Guardrails__Output as _gateway_control_v1_Guardrails__Output } from '../../../gateway/control/v1/Guardrails.js';
import type { ListAlertsRequest as _gateway_control_v1_ListAlertsRequest, ListAlertsRequest__Output as _gateway_control_v1_ListAlertsRequest__Output } from '../../../gateway/control/v1/ListAlertsRequest.js';
import type { ListAlertsResponse as _gateway_control_v1_ListAlertsResponse, ListAlertsResponse__Output as _gateway_control_v1_ListAlertsResponse__Output } from '../../../gateway/control/v1/ListAlertsResponse.js';
import type { ListEndUserBudgetsRequest as _gateway_control_v1_ListEndUserBudgetsRequest, ListEndUserBudgetsRequest__Output as _gateway_control_v1_ListEndUserBudgetsRequest__Output } from '../../../gateway/control/v1/ListEndUserBudgetsRequest.js';
import type { ListEndUserBudgetsResponse as _gateway_control_v1_ListEndUserBudgetsResponse, ListEndUserBudgetsResponse__Output as _gateway_control_v1_ListEndUserBudgetsResponse__Output } from '../../../gateway/control/v1/ListEndUserBudgetsResponse.js';
import type { ListKeysRequest as _gateway_control_v1_ListKeysRequest, ListKeysRequest__Output as _gateway_control_v1_ListKeysRequest__Output } from '../../../gateway/control/v1/ListKeysRequest.js';
import type { ListKeysResponse as _gateway_control_v1_ListKeysResponse, ListKeysResponse__Output as _gateway_control_v1_ListKeysResponse__Output } from '../../../gateway/control/v1/ListKeysResponse.js';
import type { ListMcpToolPinsRequest as _gateway_control_v1_ListMcpToolPinsRequest, ListMcpToolPinsRequest__Output as _gateway_control_v1_ListMcpToolPinsRequest__Output } from '../../../gateway/control/v1/ListMcpToolPinsRequest.js';
import type { ListMcpToolPinsResponse as _gateway_control_v1_ListMcpToolPinsResponse, ListMcpToolPinsResponse__Output as _gateway_control_v1_ListMcpToolPinsResponse__Output } from '../../../gateway/control/v1/ListMcpToolPinsResponse.js';
import type { ListOrgsRequest as _gateway_control_v1_ListOrgsRequest, ListOrgsRequest__Output as _gateway_control_v1_ListOrgsRequest__Output } from '../../../gateway/control/v1/ListOrgsRequest.js';
import type { ListOrgsResponse as _gateway_control_v1_ListOrgsResponse, ListOrgsResponse__Output as _gateway_control_v1_ListOrgsResponse__Output } from '../../../gateway/control/v1/ListOrgsResponse.js';
import type { ListProjectsRequest as _gateway_control_v1_ListProjectsRequest, ListProjectsRequest__Output as _gateway_control_v1_ListProjectsRequest__Output } from '../../../gateway/control/v1/ListProjectsRequest.js';
import type { ListProjectsResponse as _gateway_control_v1_ListProjectsResponse, ListProjectsResponse__Output as _gateway_control_v1_ListProjectsResponse__Output } from '../../../gateway/control/v1/ListProjectsResponse.js';
import type { McpToolPin as _gateway_control_v1_McpToolPin, McpToolPin__Output as _gateway_control_v1_McpToolPin__Output } from '../../../gateway/control/v1/McpToolPin.js';
import type { McpToolRef as _gateway_control_v1_McpToolRef, McpToolRef__Output as _gateway_control_v1_McpToolRef__Output } from '../../../gateway/control/v1/McpToolRef.js';
import type { Org as _gateway_control_v1_Org, Org__Output as _gateway_control_v1_Org__Output } from '../../../gateway/control/v1/Org.js';
import type { Project as _gateway_control_v1_Project, Project__Output as _gateway_control_v1_Project__Output } from '../../../gateway/control/v1/Project.js';
import type { RedeemSignInLinkRequest as _gateway_control_v1_RedeemSignInLinkRequest, RedeemSignInLinkRequest__Output as _gateway_control_v1_RedeemSignInLinkRequest__Output } from '../../../gateway/control/v1/RedeemSignInLinkRequest.js';
import type { RemoveConsoleMemberRequest as _gateway_control_v1_RemoveConsoleMemberRequest, RemoveConsoleMemberRequest__Output as _gateway_control_v1_RemoveConsoleMemberRequest__Output } from '../../../gateway/control/v1/RemoveConsoleMemberRequest.js';
import type { RevokeKeyRequest as _gateway_control_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _gateway_control_v1_RevokeKeyRequest__Output } from '../../../gateway/control/v1/RevokeKeyRequest.js';
import type { SetAlertSettingsRequest as _gateway_control_v1_SetAlertSettingsRequest, SetAlertSettingsRequest__Output as _gateway_control_v1_SetAlertSettingsRequest__Output } from '../../../gateway/control/v1/SetAlertSettingsRequest.js';
import type { SetEndUserBudgetRequest as _gateway_control_v1_SetEndUserBudgetRequest, SetEndUserBudgetRequest__Output as _gateway_control_v1_SetEndUserBudgetRequest__Output } from '../../../gateway/control/v1/SetEndUserBudgetRequest.js';
import type { SetGuardrailsRequest as _gateway_control_v1_SetGuardrailsRequest, SetGuardrailsRequest__Output as _gateway_control_v1_SetGuardrailsRequest__Output } from '../../../gateway/control/v1/SetGuardrailsRequest.js';
import type { SetKeyBudgetRequest as _gateway_control_v1_SetKeyBudgetRequest, SetKeyBudgetRequest__Output as _gateway_control_v1_SetKeyBudgetRequest__Output } from '../../../gateway/control/v1/SetKeyBudgetRequest.js';
import type { SetOrgBudgetRequest as _gateway_control_v1_SetOrgBudgetRequest, SetOrgBudgetRequest__Output as _gateway_control_v1_SetOrgBudgetRequest__Output } from '../../../gateway/control/v1/SetOrgBudgetRequest.js';
import type { SetOrgBudgetsRequest as _gateway_control_v1_SetOrgBudgetsRequest, SetOrgBudgetsRequest__Output as _gateway_control_v1_SetOrgBudgetsRequest__Output } from '../../../gateway/control/v1/SetOrgBudgetsRequest.js';
import type { SetOrgOutputLimitRequest as _gateway_control_v1_SetOrgOutputLimitRequest, SetOrgOutputLimitRequest__Output as _gateway_control_v1_SetOrgOutputLimitRequest__Output } from '../../../gateway/control/v1/SetOrgOutputLimitRequest.js';
import type { SetOrgTrialRequest as _gateway_control_v1_SetOrgTrialRequest, SetOrgTrialRequest__Output as _gateway_control_v1_SetOrgTrialRequest__Output } from '../../../gateway/control/v1/SetOrgTrialRequest.js';
import type { SetProjectBudgetRequest as _gateway_control_v1_SetProjectBudgetRequest, SetProjectBudgetRequest__Output as _gateway_control_v1_SetProjectBudgetRequest__Output } from '../../../gateway/control/v1/SetProjectBudgetRequest.js';
import type { SetTrialPolicyRequest as _gateway_control_v1_SetTrialPolicyRequest, SetTrialPolicyRequest__Output as _gateway_control_v1_SetTrialPolicyRequest__Output } from '../../../gateway/control/v1/SetTrialPolicyRequest.js';
import type { SignInLink as _gateway_control_v1_SignInLink, SignInLink__Output as _gateway_control_v1_SignInLink__Output } from '../../../gateway/control/v1/SignInLink.js';
import type { StartOidcSessionRequest as _gateway_control_v1_StartOidcSessionRequest, StartOidcSessionRequest__Output as _gateway_control_v1_StartOidcSessionRequest__Output } from '../../../gateway/control/v1/StartOidcSessionRequest.js';
import type { TopUpGrant as _gateway_control_v1_TopUpGrant, TopUpGrant__Output as _gateway_control_v1_TopUpGrant__Output } from '../../../gateway/control/v1/TopUpGrant.js';
import type { TraceLookupGrant as _gateway_control_v1_TraceLookupGrant, TraceLookupGrant__Output as _gateway_control_v1_TraceLookupGrant__Output } from '../../../gateway/control/v1/TraceLookupGrant.js';
import type { TrialPolicy as _gateway_control_v1_TrialPolicy, TrialPolicy__Output as _gateway_control_v1_TrialPolicy__Output } from '../../../gateway/control/v1/TrialPolicy.js';

export interface AdminServiceClient extends grpc.Client {
  ApplyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  ApplyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  ApplyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  ApplyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  applyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  applyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  applyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  applyCatalog(argument: _gateway_control_v1_ApplyCatalogRequest, callback: grpc.requestCallback<_gateway_control_v1_ApplyCatalogResponse__Output>): grpc.ClientUnaryCall;
  
  ApproveMcpTool(argument: _gateway_control_v1_McpToolRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  ApproveMcpTool(argument: _gateway_control_v1_McpToolRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  ApproveMcpTool(argument: _gateway_control_v1_McpToolRef, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  ApproveMcpTool(argument: _gateway_control_v1_McpToolRef, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  approveMcpTool(argument: _gateway_control_v1_McpToolRef, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  approveMcpTool(argument: _gateway_control_v1_McpToolRef, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  approveMcpTool(argument: _gateway_control_v1_McpToolRef, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  approveMcpTool(argument: _gateway_control_v1_McpToolRef, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  
  ConsoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  ConsoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  ConsoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  ConsoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleApplyCatalog(argument: _gateway_control_v1_ConsoleApplyCatalogRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  
  ConsoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  ConsoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  ConsoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  ConsoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  consoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  consoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  consoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  consoleApproveMcpTool(argument: _gateway_control_v1_ConsoleApproveMcpToolRequest, callback: grpc.requestCallback<_gateway_control_v1_McpToolPin__Output>): grpc.ClientUnaryCall;
  
  ConsoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  ConsoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  ConsoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  ConsoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  consoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  consoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  consoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  consoleCreateKey(argument: _gateway_control_v1_ConsoleCreateKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  
  ConsoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  ConsoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  ConsoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  ConsoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleCreateProject(argument: _gateway_control_v1_ConsoleCreateProjectRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  
  ConsoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  ConsoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  ConsoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  ConsoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleGetAlertSettings(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  
  ConsoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  ConsoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  ConsoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  ConsoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  consoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  consoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  consoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  consoleGetBudgets(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleBudgets__Output>): grpc.ClientUnaryCall;
  
  ConsoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  ConsoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  ConsoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  ConsoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  consoleGetCatalog(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleCatalog__Output>): grpc.ClientUnaryCall;
  
  ConsoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  ConsoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  ConsoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  ConsoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  consoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  consoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  consoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  consoleGetGuardrails(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  
  ConsoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleGetOrg(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  ConsoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  ConsoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  ConsoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  ConsoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTopUp(argument: _gateway_control_v1_ConsoleGrantTopUpRequest, callback: grpc.requestCallback<_gateway_control_v1_TopUpGrant__Output>): grpc.ClientUnaryCall;
  
  ConsoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  ConsoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  ConsoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  ConsoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  consoleGrantTraceLookup(argument: _gateway_control_v1_ConsoleGrantTraceLookupRequest, callback: grpc.requestCallback<_gateway_control_v1_TraceLookupGrant__Output>): grpc.ClientUnaryCall;
  
  ConsoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  ConsoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  ConsoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  ConsoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  consoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  consoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  consoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  consoleInviteMember(argument: _gateway_control_v1_ConsoleInviteMemberRequest, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  
  ConsoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  consoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  consoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  consoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  consoleListAlerts(argument: _gateway_control_v1_ConsoleListAlertsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  
  ConsoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  ConsoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  ConsoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  ConsoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  consoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  consoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  consoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  consoleListAudit(argument: _gateway_control_v1_ConsoleListAuditRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditPage__Output>): grpc.ClientUnaryCall;
  
  ConsoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  consoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  consoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  consoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  consoleListKeys(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  
  ConsoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  ConsoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  ConsoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  ConsoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  consoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  consoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  consoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  consoleListMembers(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMembers__Output>): grpc.ClientUnaryCall;
  
  ConsoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  ConsoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  ConsoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  ConsoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  consoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  consoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  consoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  consoleListModels(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleModels__Output>): grpc.ClientUnaryCall;
  
  ConsoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  consoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  consoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  consoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  consoleListOrgs(argument: _gateway_control_v1_ConsoleListOrgsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  
  ConsoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  ConsoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  consoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  consoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  consoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  consoleListPendingMcpTools(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  
  ConsoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  ConsoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  ConsoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  ConsoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  consoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  consoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  consoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  consoleOperatorOrg(argument: _gateway_control_v1_ConsoleOperatorOrgRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleOperatorOrgView__Output>): grpc.ClientUnaryCall;
  
  ConsoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  ConsoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  ConsoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  ConsoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  consoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  consoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  consoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  consoleRecordAudit(argument: _gateway_control_v1_ConsoleRecordAuditRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleAuditEntry__Output>): grpc.ClientUnaryCall;
  
  ConsoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  ConsoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  ConsoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  ConsoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  consoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  consoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  consoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  consoleRemoveMember(argument: _gateway_control_v1_ConsoleRemoveMemberRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  
  ConsoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  ConsoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  ConsoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  ConsoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleRevokeKey(argument: _gateway_control_v1_ConsoleRevokeKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  
  ConsoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  ConsoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  ConsoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  ConsoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  consoleSetAlertSettings(argument: _gateway_control_v1_ConsoleSetAlertSettingsRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  
  ConsoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetBudget(argument: _gateway_control_v1_ConsoleSetBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  ConsoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  ConsoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  ConsoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  ConsoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  consoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  consoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  consoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  consoleSetEndUserBudget(argument: _gateway_control_v1_ConsoleSetEndUserBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  
  ConsoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  ConsoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  ConsoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  ConsoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  consoleSetKeyBudget(argument: _gateway_control_v1_ConsoleSetKeyBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  
  ConsoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  ConsoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  ConsoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  ConsoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  consoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  consoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  consoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  consoleSetMoneyFormat(argument: _gateway_control_v1_ConsoleSetMoneyFormatRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMoneyFormat__Output>): grpc.ClientUnaryCall;
  
  ConsoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  ConsoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  consoleSetOrgBudgets(argument: _gateway_control_v1_ConsoleSetOrgBudgetsRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  ConsoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  ConsoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  ConsoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  ConsoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  consoleSetProjectBudget(argument: _gateway_control_v1_ConsoleSetProjectBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  
  CreateKey(argument: _gateway_control_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _gateway_control_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _gateway_control_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  CreateKey(argument: _gateway_control_v1_CreateKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _gateway_control_v1_CreateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _gateway_control_v1_CreateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _gateway_control_v1_CreateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  createKey(argument: _gateway_control_v1_CreateKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_CreatedKey__Output>): grpc.ClientUnaryCall;
  
  CreateOrg(argument: _gateway_control_v1_CreateOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  CreateOrg(argument: _gateway_control_v1_CreateOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  CreateOrg(argument: _gateway_control_v1_CreateOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  CreateOrg(argument: _gateway_control_v1_CreateOrgRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _gateway_control_v1_CreateOrgRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _gateway_control_v1_CreateOrgRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _gateway_control_v1_CreateOrgRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  createOrg(argument: _gateway_control_v1_CreateOrgRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  CreateProject(argument: _gateway_control_v1_CreateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  CreateProject(argument: _gateway_control_v1_CreateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  CreateProject(argument: _gateway_control_v1_CreateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  CreateProject(argument: _gateway_control_v1_CreateProjectRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  createProject(argument: _gateway_control_v1_CreateProjectRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  createProject(argument: _gateway_control_v1_CreateProjectRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  createProject(argument: _gateway_control_v1_CreateProjectRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  createProject(argument: _gateway_control_v1_CreateProjectRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  
  CreateSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  CreateSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  CreateSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  CreateSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  createSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  createSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  createSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  createSignInLink(argument: _gateway_control_v1_CreateSignInLinkRequest, callback: grpc.requestCallback<_gateway_control_v1_SignInLink__Output>): grpc.ClientUnaryCall;
  
  EnableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  EnableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  EnableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  EnableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  enableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  enableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  enableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  enableMcpServers(argument: _gateway_control_v1_EnableMcpServersRequest, callback: grpc.requestCallback<_gateway_control_v1_EnableMcpServersResponse__Output>): grpc.ClientUnaryCall;
  
  EnableModels(argument: _gateway_control_v1_EnableModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  EnableModels(argument: _gateway_control_v1_EnableModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  EnableModels(argument: _gateway_control_v1_EnableModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  EnableModels(argument: _gateway_control_v1_EnableModelsRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  enableModels(argument: _gateway_control_v1_EnableModelsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  enableModels(argument: _gateway_control_v1_EnableModelsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  enableModels(argument: _gateway_control_v1_EnableModelsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  enableModels(argument: _gateway_control_v1_EnableModelsRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  EndConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  EndConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  EndConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  EndConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  endConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  endConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  endConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  endConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  
  GetAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  GetAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  GetAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  GetAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  getAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  getAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  getAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  getAlertSettings(argument: _gateway_control_v1_GetAlertSettingsRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  
  GetCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  GetCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  GetCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  GetCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  getCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  getCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  getCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  getCatalogDocument(argument: _gateway_control_v1_GetCatalogDocumentRequest, callback: grpc.requestCallback<_gateway_control_v1_GetCatalogDocumentResponse__Output>): grpc.ClientUnaryCall;
  
  GetConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  GetConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  GetConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  GetConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  getConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  getConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  getConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  getConsoleSession(argument: _gateway_control_v1_ConsoleSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  
  GetGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  GetGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  GetGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  GetGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  getGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  getGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  getGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  getGuardrails(argument: _gateway_control_v1_GetGuardrailsRequest, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  
  ListAlerts(argument: _gateway_control_v1_ListAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ListAlerts(argument: _gateway_control_v1_ListAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ListAlerts(argument: _gateway_control_v1_ListAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  ListAlerts(argument: _gateway_control_v1_ListAlertsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _gateway_control_v1_ListAlertsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _gateway_control_v1_ListAlertsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _gateway_control_v1_ListAlertsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  listAlerts(argument: _gateway_control_v1_ListAlertsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListAlertsResponse__Output>): grpc.ClientUnaryCall;
  
  ListEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ListEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ListEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ListEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listEndUserBudgets(argument: _gateway_control_v1_ListEndUserBudgetsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListEndUserBudgetsResponse__Output>): grpc.ClientUnaryCall;
  
  ListKeys(argument: _gateway_control_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_control_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_control_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  ListKeys(argument: _gateway_control_v1_ListKeysRequest, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_control_v1_ListKeysRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_control_v1_ListKeysRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_control_v1_ListKeysRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  listKeys(argument: _gateway_control_v1_ListKeysRequest, callback: grpc.requestCallback<_gateway_control_v1_ListKeysResponse__Output>): grpc.ClientUnaryCall;
  
  ListMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  ListMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  ListMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  ListMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  listMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  listMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  listMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  listMcpToolPins(argument: _gateway_control_v1_ListMcpToolPinsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListMcpToolPinsResponse__Output>): grpc.ClientUnaryCall;
  
  ListOrgs(argument: _gateway_control_v1_ListOrgsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  ListOrgs(argument: _gateway_control_v1_ListOrgsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  ListOrgs(argument: _gateway_control_v1_ListOrgsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  ListOrgs(argument: _gateway_control_v1_ListOrgsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _gateway_control_v1_ListOrgsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _gateway_control_v1_ListOrgsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _gateway_control_v1_ListOrgsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  listOrgs(argument: _gateway_control_v1_ListOrgsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListOrgsResponse__Output>): grpc.ClientUnaryCall;
  
  ListProjects(argument: _gateway_control_v1_ListProjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  ListProjects(argument: _gateway_control_v1_ListProjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  ListProjects(argument: _gateway_control_v1_ListProjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  ListProjects(argument: _gateway_control_v1_ListProjectsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  listProjects(argument: _gateway_control_v1_ListProjectsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  listProjects(argument: _gateway_control_v1_ListProjectsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  listProjects(argument: _gateway_control_v1_ListProjectsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  listProjects(argument: _gateway_control_v1_ListProjectsRequest, callback: grpc.requestCallback<_gateway_control_v1_ListProjectsResponse__Output>): grpc.ClientUnaryCall;
  
  RedeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  RedeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  RedeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  RedeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  redeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  redeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  redeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  redeemSignInLink(argument: _gateway_control_v1_RedeemSignInLinkRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  
  RemoveConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  RemoveConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  RemoveConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  RemoveConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  removeConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  removeConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  removeConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  removeConsoleMember(argument: _gateway_control_v1_RemoveConsoleMemberRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleMember__Output>): grpc.ClientUnaryCall;
  
  RevokeKey(argument: _gateway_control_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _gateway_control_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _gateway_control_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  RevokeKey(argument: _gateway_control_v1_RevokeKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _gateway_control_v1_RevokeKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _gateway_control_v1_RevokeKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _gateway_control_v1_RevokeKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  revokeKey(argument: _gateway_control_v1_RevokeKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  
  SetAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  SetAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  SetAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  SetAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  setAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  setAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  setAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  setAlertSettings(argument: _gateway_control_v1_SetAlertSettingsRequest, callback: grpc.requestCallback<_gateway_control_v1_AlertSettings__Output>): grpc.ClientUnaryCall;
  
  SetEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  SetEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  SetEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  SetEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  setEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  setEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  setEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  setEndUserBudget(argument: _gateway_control_v1_SetEndUserBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_EndUserBudget__Output>): grpc.ClientUnaryCall;
  
  SetGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  SetGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  SetGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  SetGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  setGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  setGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  setGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  setGuardrails(argument: _gateway_control_v1_SetGuardrailsRequest, callback: grpc.requestCallback<_gateway_control_v1_Guardrails__Output>): grpc.ClientUnaryCall;
  
  SetKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  SetKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  SetKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  SetKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  setKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  setKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  setKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  setKeyBudget(argument: _gateway_control_v1_SetKeyBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_ApiKey__Output>): grpc.ClientUnaryCall;
  
  SetOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudget(argument: _gateway_control_v1_SetOrgBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  SetOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgBudgets(argument: _gateway_control_v1_SetOrgBudgetsRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  SetOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgOutputLimit(argument: _gateway_control_v1_SetOrgOutputLimitRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  SetOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  SetOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  setOrgTrial(argument: _gateway_control_v1_SetOrgTrialRequest, callback: grpc.requestCallback<_gateway_control_v1_Org__Output>): grpc.ClientUnaryCall;
  
  SetProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  SetProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  SetProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  SetProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  setProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  setProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  setProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  setProjectBudget(argument: _gateway_control_v1_SetProjectBudgetRequest, callback: grpc.requestCallback<_gateway_control_v1_Project__Output>): grpc.ClientUnaryCall;
  
  SetTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  SetTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  SetTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  SetTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  setTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  setTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  setTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  setTrialPolicy(argument: _gateway_control_v1_SetTrialPolicyRequest, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  
  StartOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  StartOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  StartOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  StartOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  startOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  startOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  startOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  startOidcSession(argument: _gateway_control_v1_StartOidcSessionRequest, callback: grpc.requestCallback<_gateway_control_v1_ConsoleSession__Output>): grpc.ClientUnaryCall;
  
}

export interface AdminServiceHandlers extends grpc.UntypedServiceImplementation {
  ApplyCatalog: grpc.handleUnaryCall<_gateway_control_v1_ApplyCatalogRequest__Output, _gateway_control_v1_ApplyCatalogResponse>;
  
  ApproveMcpTool: grpc.handleUnaryCall<_gateway_control_v1_McpToolRef__Output, _gateway_control_v1_McpToolPin>;
  
  ConsoleApplyCatalog: grpc.handleUnaryCall<_gateway_control_v1_ConsoleApplyCatalogRequest__Output, _gateway_control_v1_ConsoleCatalog>;
  
  ConsoleApproveMcpTool: grpc.handleUnaryCall<_gateway_control_v1_ConsoleApproveMcpToolRequest__Output, _gateway_control_v1_McpToolPin>;
  
  ConsoleCreateKey: grpc.handleUnaryCall<_gateway_control_v1_ConsoleCreateKeyRequest__Output, _gateway_control_v1_CreatedKey>;
  
  ConsoleCreateProject: grpc.handleUnaryCall<_gateway_control_v1_ConsoleCreateProjectRequest__Output, _gateway_control_v1_Project>;
  
  ConsoleGetAlertSettings: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_AlertSettings>;
  
  ConsoleGetBudgets: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleBudgets>;
  
  ConsoleGetCatalog: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleCatalog>;
  
  ConsoleGetGuardrails: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_Guardrails>;
  
  ConsoleGetOrg: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_Org>;
  
  ConsoleGrantTopUp: grpc.handleUnaryCall<_gateway_control_v1_ConsoleGrantTopUpRequest__Output, _gateway_control_v1_TopUpGrant>;
  
  ConsoleGrantTraceLookup: grpc.handleUnaryCall<_gateway_control_v1_ConsoleGrantTraceLookupRequest__Output, _gateway_control_v1_TraceLookupGrant>;
  
  ConsoleInviteMember: grpc.handleUnaryCall<_gateway_control_v1_ConsoleInviteMemberRequest__Output, _gateway_control_v1_SignInLink>;
  
  ConsoleListAlerts: grpc.handleUnaryCall<_gateway_control_v1_ConsoleListAlertsRequest__Output, _gateway_control_v1_ListAlertsResponse>;
  
  ConsoleListAudit: grpc.handleUnaryCall<_gateway_control_v1_ConsoleListAuditRequest__Output, _gateway_control_v1_ConsoleAuditPage>;
  
  ConsoleListKeys: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ListKeysResponse>;
  
  ConsoleListMembers: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleMembers>;
  
  ConsoleListModels: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleModels>;
  
  ConsoleListOrgs: grpc.handleUnaryCall<_gateway_control_v1_ConsoleListOrgsRequest__Output, _gateway_control_v1_ListOrgsResponse>;
  
  ConsoleListPendingMcpTools: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ListMcpToolPinsResponse>;
  
  ConsoleOperatorOrg: grpc.handleUnaryCall<_gateway_control_v1_ConsoleOperatorOrgRequest__Output, _gateway_control_v1_ConsoleOperatorOrgView>;
  
  ConsoleRecordAudit: grpc.handleUnaryCall<_gateway_control_v1_ConsoleRecordAuditRequest__Output, _gateway_control_v1_ConsoleAuditEntry>;
  
  ConsoleRemoveMember: grpc.handleUnaryCall<_gateway_control_v1_ConsoleRemoveMemberRequest__Output, _gateway_control_v1_ConsoleMember>;
  
  ConsoleRevokeKey: grpc.handleUnaryCall<_gateway_control_v1_ConsoleRevokeKeyRequest__Output, _gateway_control_v1_ApiKey>;
  
  ConsoleSetAlertSettings: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSetAlertSettingsRequest__Output, _gateway_control_v1_AlertSettings>;
  
  ConsoleSetBudget: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSetBudgetRequest__Output, _gateway_control_v1_Org>;
  
  ConsoleSetEndUserBudget: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSetEndUserBudgetRequest__Output, _gateway_control_v1_EndUserBudget>;
  
  ConsoleSetKeyBudget: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSetKeyBudgetRequest__Output, _gateway_control_v1_ApiKey>;
  
  ConsoleSetMoneyFormat: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSetMoneyFormatRequest__Output, _gateway_control_v1_ConsoleMoneyFormat>;
  
  ConsoleSetOrgBudgets: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSetOrgBudgetsRequest__Output, _gateway_control_v1_Org>;
  
  ConsoleSetProjectBudget: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSetProjectBudgetRequest__Output, _gateway_control_v1_Project>;
  
  CreateKey: grpc.handleUnaryCall<_gateway_control_v1_CreateKeyRequest__Output, _gateway_control_v1_CreatedKey>;
  
  CreateOrg: grpc.handleUnaryCall<_gateway_control_v1_CreateOrgRequest__Output, _gateway_control_v1_Org>;
  
  CreateProject: grpc.handleUnaryCall<_gateway_control_v1_CreateProjectRequest__Output, _gateway_control_v1_Project>;
  
  CreateSignInLink: grpc.handleUnaryCall<_gateway_control_v1_CreateSignInLinkRequest__Output, _gateway_control_v1_SignInLink>;
  
  EnableMcpServers: grpc.handleUnaryCall<_gateway_control_v1_EnableMcpServersRequest__Output, _gateway_control_v1_EnableMcpServersResponse>;
  
  EnableModels: grpc.handleUnaryCall<_gateway_control_v1_EnableModelsRequest__Output, _gateway_control_v1_Org>;
  
  EndConsoleSession: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleSession>;
  
  GetAlertSettings: grpc.handleUnaryCall<_gateway_control_v1_GetAlertSettingsRequest__Output, _gateway_control_v1_AlertSettings>;
  
  GetCatalogDocument: grpc.handleUnaryCall<_gateway_control_v1_GetCatalogDocumentRequest__Output, _gateway_control_v1_GetCatalogDocumentResponse>;
  
  GetConsoleSession: grpc.handleUnaryCall<_gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleSession>;
  
  GetGuardrails: grpc.handleUnaryCall<_gateway_control_v1_GetGuardrailsRequest__Output, _gateway_control_v1_Guardrails>;
  
  ListAlerts: grpc.handleUnaryCall<_gateway_control_v1_ListAlertsRequest__Output, _gateway_control_v1_ListAlertsResponse>;
  
  ListEndUserBudgets: grpc.handleUnaryCall<_gateway_control_v1_ListEndUserBudgetsRequest__Output, _gateway_control_v1_ListEndUserBudgetsResponse>;
  
  ListKeys: grpc.handleUnaryCall<_gateway_control_v1_ListKeysRequest__Output, _gateway_control_v1_ListKeysResponse>;
  
  ListMcpToolPins: grpc.handleUnaryCall<_gateway_control_v1_ListMcpToolPinsRequest__Output, _gateway_control_v1_ListMcpToolPinsResponse>;
  
  ListOrgs: grpc.handleUnaryCall<_gateway_control_v1_ListOrgsRequest__Output, _gateway_control_v1_ListOrgsResponse>;
  
  ListProjects: grpc.handleUnaryCall<_gateway_control_v1_ListProjectsRequest__Output, _gateway_control_v1_ListProjectsResponse>;
  
  RedeemSignInLink: grpc.handleUnaryCall<_gateway_control_v1_RedeemSignInLinkRequest__Output, _gateway_control_v1_ConsoleSession>;
  
  RemoveConsoleMember: grpc.handleUnaryCall<_gateway_control_v1_RemoveConsoleMemberRequest__Output, _gateway_control_v1_ConsoleMember>;
  
  RevokeKey: grpc.handleUnaryCall<_gateway_control_v1_RevokeKeyRequest__Output, _gateway_control_v1_ApiKey>;
  
  SetAlertSettings: grpc.handleUnaryCall<_gateway_control_v1_SetAlertSettingsRequest__Output, _gateway_control_v1_AlertSettings>;
  
  SetEndUserBudget: grpc.handleUnaryCall<_gateway_control_v1_SetEndUserBudgetRequest__Output, _gateway_control_v1_EndUserBudget>;
  
  SetGuardrails: grpc.handleUnaryCall<_gateway_control_v1_SetGuardrailsRequest__Output, _gateway_control_v1_Guardrails>;
  
  SetKeyBudget: grpc.handleUnaryCall<_gateway_control_v1_SetKeyBudgetRequest__Output, _gateway_control_v1_ApiKey>;
  
  SetOrgBudget: grpc.handleUnaryCall<_gateway_control_v1_SetOrgBudgetRequest__Output, _gateway_control_v1_Org>;
  
  SetOrgBudgets: grpc.handleUnaryCall<_gateway_control_v1_SetOrgBudgetsRequest__Output, _gateway_control_v1_Org>;
  
  SetOrgOutputLimit: grpc.handleUnaryCall<_gateway_control_v1_SetOrgOutputLimitRequest__Output, _gateway_control_v1_Org>;
  
  SetOrgTrial: grpc.handleUnaryCall<_gateway_control_v1_SetOrgTrialRequest__Output, _gateway_control_v1_Org>;
  
  SetProjectBudget: grpc.handleUnaryCall<_gateway_control_v1_SetProjectBudgetRequest__Output, _gateway_control_v1_Project>;
  
  SetTrialPolicy: grpc.handleUnaryCall<_gateway_control_v1_SetTrialPolicyRequest__Output, _gateway_control_v1_TrialPolicy>;
  
  StartOidcSession: grpc.handleUnaryCall<_gateway_control_v1_StartOidcSessionRequest__Output, _gateway_control_v1_ConsoleSession>;
  
}

export interface AdminServiceDefinition extends grpc.ServiceDefinition {
  ApplyCatalog: MethodDefinition<_gateway_control_v1_ApplyCatalogRequest, _gateway_control_v1_ApplyCatalogResponse, _gateway_control_v1_ApplyCatalogRequest__Output, _gateway_control_v1_ApplyCatalogResponse__Output>
  ApproveMcpTool: MethodDefinition<_gateway_control_v1_McpToolRef, _gateway_control_v1_McpToolPin, _gateway_control_v1_McpToolRef__Output, _gateway_control_v1_McpToolPin__Output>
  ConsoleApplyCatalog: MethodDefinition<_gateway_control_v1_ConsoleApplyCatalogRequest, _gateway_control_v1_ConsoleCatalog, _gateway_control_v1_ConsoleApplyCatalogRequest__Output, _gateway_control_v1_ConsoleCatalog__Output>
  ConsoleApproveMcpTool: MethodDefinition<_gateway_control_v1_ConsoleApproveMcpToolRequest, _gateway_control_v1_McpToolPin, _gateway_control_v1_ConsoleApproveMcpToolRequest__Output, _gateway_control_v1_McpToolPin__Output>
  ConsoleCreateKey: MethodDefinition<_gateway_control_v1_ConsoleCreateKeyRequest, _gateway_control_v1_CreatedKey, _gateway_control_v1_ConsoleCreateKeyRequest__Output, _gateway_control_v1_CreatedKey__Output>
  ConsoleCreateProject: MethodDefinition<_gateway_control_v1_ConsoleCreateProjectRequest, _gateway_control_v1_Project, _gateway_control_v1_ConsoleCreateProjectRequest__Output, _gateway_control_v1_Project__Output>
  ConsoleGetAlertSettings: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_AlertSettings, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_AlertSettings__Output>
  ConsoleGetBudgets: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ConsoleBudgets, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleBudgets__Output>
  ConsoleGetCatalog: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ConsoleCatalog, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleCatalog__Output>
  ConsoleGetGuardrails: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_Guardrails, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_Guardrails__Output>
  ConsoleGetOrg: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_Org, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_Org__Output>
  ConsoleGrantTopUp: MethodDefinition<_gateway_control_v1_ConsoleGrantTopUpRequest, _gateway_control_v1_TopUpGrant, _gateway_control_v1_ConsoleGrantTopUpRequest__Output, _gateway_control_v1_TopUpGrant__Output>
  ConsoleGrantTraceLookup: MethodDefinition<_gateway_control_v1_ConsoleGrantTraceLookupRequest, _gateway_control_v1_TraceLookupGrant, _gateway_control_v1_ConsoleGrantTraceLookupRequest__Output, _gateway_control_v1_TraceLookupGrant__Output>
  ConsoleInviteMember: MethodDefinition<_gateway_control_v1_ConsoleInviteMemberRequest, _gateway_control_v1_SignInLink, _gateway_control_v1_ConsoleInviteMemberRequest__Output, _gateway_control_v1_SignInLink__Output>
  ConsoleListAlerts: MethodDefinition<_gateway_control_v1_ConsoleListAlertsRequest, _gateway_control_v1_ListAlertsResponse, _gateway_control_v1_ConsoleListAlertsRequest__Output, _gateway_control_v1_ListAlertsResponse__Output>
  ConsoleListAudit: MethodDefinition<_gateway_control_v1_ConsoleListAuditRequest, _gateway_control_v1_ConsoleAuditPage, _gateway_control_v1_ConsoleListAuditRequest__Output, _gateway_control_v1_ConsoleAuditPage__Output>
  ConsoleListKeys: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ListKeysResponse, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ListKeysResponse__Output>
  ConsoleListMembers: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ConsoleMembers, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleMembers__Output>
  ConsoleListModels: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ConsoleModels, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleModels__Output>
  ConsoleListOrgs: MethodDefinition<_gateway_control_v1_ConsoleListOrgsRequest, _gateway_control_v1_ListOrgsResponse, _gateway_control_v1_ConsoleListOrgsRequest__Output, _gateway_control_v1_ListOrgsResponse__Output>
  ConsoleListPendingMcpTools: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ListMcpToolPinsResponse, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ListMcpToolPinsResponse__Output>
  ConsoleOperatorOrg: MethodDefinition<_gateway_control_v1_ConsoleOperatorOrgRequest, _gateway_control_v1_ConsoleOperatorOrgView, _gateway_control_v1_ConsoleOperatorOrgRequest__Output, _gateway_control_v1_ConsoleOperatorOrgView__Output>
  ConsoleRecordAudit: MethodDefinition<_gateway_control_v1_ConsoleRecordAuditRequest, _gateway_control_v1_ConsoleAuditEntry, _gateway_control_v1_ConsoleRecordAuditRequest__Output, _gateway_control_v1_ConsoleAuditEntry__Output>
  ConsoleRemoveMember: MethodDefinition<_gateway_control_v1_ConsoleRemoveMemberRequest, _gateway_control_v1_ConsoleMember, _gateway_control_v1_ConsoleRemoveMemberRequest__Output, _gateway_control_v1_ConsoleMember__Output>
  ConsoleRevokeKey: MethodDefinition<_gateway_control_v1_ConsoleRevokeKeyRequest, _gateway_control_v1_ApiKey, _gateway_control_v1_ConsoleRevokeKeyRequest__Output, _gateway_control_v1_ApiKey__Output>
  ConsoleSetAlertSettings: MethodDefinition<_gateway_control_v1_ConsoleSetAlertSettingsRequest, _gateway_control_v1_AlertSettings, _gateway_control_v1_ConsoleSetAlertSettingsRequest__Output, _gateway_control_v1_AlertSettings__Output>
  ConsoleSetBudget: MethodDefinition<_gateway_control_v1_ConsoleSetBudgetRequest, _gateway_control_v1_Org, _gateway_control_v1_ConsoleSetBudgetRequest__Output, _gateway_control_v1_Org__Output>
  ConsoleSetEndUserBudget: MethodDefinition<_gateway_control_v1_ConsoleSetEndUserBudgetRequest, _gateway_control_v1_EndUserBudget, _gateway_control_v1_ConsoleSetEndUserBudgetRequest__Output, _gateway_control_v1_EndUserBudget__Output>
  ConsoleSetKeyBudget: MethodDefinition<_gateway_control_v1_ConsoleSetKeyBudgetRequest, _gateway_control_v1_ApiKey, _gateway_control_v1_ConsoleSetKeyBudgetRequest__Output, _gateway_control_v1_ApiKey__Output>
  ConsoleSetMoneyFormat: MethodDefinition<_gateway_control_v1_ConsoleSetMoneyFormatRequest, _gateway_control_v1_ConsoleMoneyFormat, _gateway_control_v1_ConsoleSetMoneyFormatRequest__Output, _gateway_control_v1_ConsoleMoneyFormat__Output>
  ConsoleSetOrgBudgets: MethodDefinition<_gateway_control_v1_ConsoleSetOrgBudgetsRequest, _gateway_control_v1_Org, _gateway_control_v1_ConsoleSetOrgBudgetsRequest__Output, _gateway_control_v1_Org__Output>
  ConsoleSetProjectBudget: MethodDefinition<_gateway_control_v1_ConsoleSetProjectBudgetRequest, _gateway_control_v1_Project, _gateway_control_v1_ConsoleSetProjectBudgetRequest__Output, _gateway_control_v1_Project__Output>
  CreateKey: MethodDefinition<_gateway_control_v1_CreateKeyRequest, _gateway_control_v1_CreatedKey, _gateway_control_v1_CreateKeyRequest__Output, _gateway_control_v1_CreatedKey__Output>
  CreateOrg: MethodDefinition<_gateway_control_v1_CreateOrgRequest, _gateway_control_v1_Org, _gateway_control_v1_CreateOrgRequest__Output, _gateway_control_v1_Org__Output>
  CreateProject: MethodDefinition<_gateway_control_v1_CreateProjectRequest, _gateway_control_v1_Project, _gateway_control_v1_CreateProjectRequest__Output, _gateway_control_v1_Project__Output>
  CreateSignInLink: MethodDefinition<_gateway_control_v1_CreateSignInLinkRequest, _gateway_control_v1_SignInLink, _gateway_control_v1_CreateSignInLinkRequest__Output, _gateway_control_v1_SignInLink__Output>
  EnableMcpServers: MethodDefinition<_gateway_control_v1_EnableMcpServersRequest, _gateway_control_v1_EnableMcpServersResponse, _gateway_control_v1_EnableMcpServersRequest__Output, _gateway_control_v1_EnableMcpServersResponse__Output>
  EnableModels: MethodDefinition<_gateway_control_v1_EnableModelsRequest, _gateway_control_v1_Org, _gateway_control_v1_EnableModelsRequest__Output, _gateway_control_v1_Org__Output>
  EndConsoleSession: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ConsoleSession, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleSession__Output>
  GetAlertSettings: MethodDefinition<_gateway_control_v1_GetAlertSettingsRequest, _gateway_control_v1_AlertSettings, _gateway_control_v1_GetAlertSettingsRequest__Output, _gateway_control_v1_AlertSettings__Output>
  GetCatalogDocument: MethodDefinition<_gateway_control_v1_GetCatalogDocumentRequest, _gateway_control_v1_GetCatalogDocumentResponse, _gateway_control_v1_GetCatalogDocumentRequest__Output, _gateway_control_v1_GetCatalogDocumentResponse__Output>
  GetConsoleSession: MethodDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ConsoleSession, _gateway_control_v1_ConsoleSessionRequest__Output, _gateway_control_v1_ConsoleSession__Output>
  GetGuardrails: MethodDefinition<_gateway_control_v1_GetGuardrailsRequest, _gateway_control_v1_Guardrails, _gateway_control_v1_GetGuardrailsRequest__Output, _gateway_control_v1_Guardrails__Output>
  ListAlerts: MethodDefinition<_gateway_control_v1_ListAlertsRequest, _gateway_control_v1_ListAlertsResponse, _gateway_control_v1_ListAlertsRequest__Output, _gateway_control_v1_ListAlertsResponse__Output>
  ListEndUserBudgets: MethodDefinition<_gateway_control_v1_ListEndUserBudgetsRequest, _gateway_control_v1_ListEndUserBudgetsResponse, _gateway_control_v1_ListEndUserBudgetsRequest__Output, _gateway_control_v1_ListEndUserBudgetsResponse__Output>
  ListKeys: MethodDefinition<_gateway_control_v1_ListKeysRequest, _gateway_control_v1_ListKeysResponse, _gateway_control_v1_ListKeysRequest__Output, _gateway_control_v1_ListKeysResponse__Output>
  ListMcpToolPins: MethodDefinition<_gateway_control_v1_ListMcpToolPinsRequest, _gateway_control_v1_ListMcpToolPinsResponse, _gateway_control_v1_ListMcpToolPinsRequest__Output, _gateway_control_v1_ListMcpToolPinsResponse__Output>
  ListOrgs: MethodDefinition<_gateway_control_v1_ListOrgsRequest, _gateway_control_v1_ListOrgsResponse, _gateway_control_v1_ListOrgsRequest__Output, _gateway_control_v1_ListOrgsResponse__Output>
  ListProjects: MethodDefinition<_gateway_control_v1_ListProjectsRequest, _gateway_control_v1_ListProjectsResponse, _gateway_control_v1_ListProjectsRequest__Output, _gateway_control_v1_ListProjectsResponse__Output>
  RedeemSignInLink: MethodDefinition<_gateway_control_v1_RedeemSignInLinkRequest, _gateway_control_v1_ConsoleSession, _gateway_control_v1_RedeemSignInLinkRequest__Output, _gateway_control_v1_ConsoleSession__Output>
  RemoveConsoleMember: MethodDefinition<_gateway_control_v1_RemoveConsoleMemberRequest, _gateway_control_v1_ConsoleMember, _gateway_control_v1_RemoveConsoleMemberRequest__Output, _gateway_control_v1_ConsoleMember__Output>
  RevokeKey: MethodDefinition<_gateway_control_v1_RevokeKeyRequest, _gateway_control_v1_ApiKey, _gateway_control_v1_RevokeKeyRequest__Output, _gateway_control_v1_ApiKey__Output>
  SetAlertSettings: MethodDefinition<_gateway_control_v1_SetAlertSettingsRequest, _gateway_control_v1_AlertSettings, _gateway_control_v1_SetAlertSettingsRequest__Output, _gateway_control_v1_AlertSettings__Output>
  SetEndUserBudget: MethodDefinition<_gateway_control_v1_SetEndUserBudgetRequest, _gateway_control_v1_EndUserBudget, _gateway_control_v1_SetEndUserBudgetRequest__Output, _gateway_control_v1_EndUserBudget__Output>
  SetGuardrails: MethodDefinition<_gateway_control_v1_SetGuardrailsRequest, _gateway_control_v1_Guardrails, _gateway_control_v1_SetGuardrailsRequest__Output, _gateway_control_v1_Guardrails__Output>
  SetKeyBudget: MethodDefinition<_gateway_control_v1_SetKeyBudgetRequest, _gateway_control_v1_ApiKey, _gateway_control_v1_SetKeyBudgetRequest__Output, _gateway_control_v1_ApiKey__Output>
  SetOrgBudget: MethodDefinition<_gateway_control_v1_SetOrgBudgetRequest, _gateway_control_v1_Org, _gateway_control_v1_SetOrgBudgetRequest__Output, _gateway_control_v1_Org__Output>
  SetOrgBudgets: MethodDefinition<_gateway_control_v1_SetOrgBudgetsRequest, _gateway_control_v1_Org, _gateway_control_v1_SetOrgBudgetsRequest__Output, _gateway_control_v1_Org__Output>
  SetOrgOutputLimit: MethodDefinition<_gateway_control_v1_SetOrgOutputLimitRequest, _gateway_control_v1_Org, _gateway_control_v1_SetOrgOutputLimitRequest__Output, _gateway_control_v1_Org__Output>
  SetOrgTrial: MethodDefinition<_gateway_control_v1_SetOrgTrialRequest, _gateway_control_v1_Org, _gateway_control_v1_SetOrgTrialRequest__Output, _gateway_control_v1_Org__Output>
  SetProjectBudget: MethodDefinition<_gateway_control_v1_SetProjectBudgetRequest, _gateway_control_v1_Project, _gateway_control_v1_SetProjectBudgetRequest__Output, _gateway_control_v1_Project__Output>
  SetTrialPolicy: MethodDefinition<_gateway_control_v1_SetTrialPolicyRequest, _gateway_control_v1_TrialPolicy, _gateway_control_v1_SetTrialPolicyRequest__Output, _gateway_control_v1_TrialPolicy__Output>
  StartOidcSession: MethodDefinition<_gateway_control_v1_StartOidcSessionRequest, _gateway_control_v1_ConsoleSession, _gateway_control_v1_StartOidcSessionRequest__Output, _gateway_control_v1_ConsoleSession__Output>
}
