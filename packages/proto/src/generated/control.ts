import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AdminServiceClient as _gateway_control_v1_AdminServiceClient, AdminServiceDefinition as _gateway_control_v1_AdminServiceDefinition } from './gateway/control/v1/AdminService.js';
import type { Alert as _gateway_control_v1_Alert, Alert__Output as _gateway_control_v1_Alert__Output } from './gateway/control/v1/Alert.js';
import type { AlertAmounts as _gateway_control_v1_AlertAmounts, AlertAmounts__Output as _gateway_control_v1_AlertAmounts__Output } from './gateway/control/v1/AlertAmounts.js';
import type { AlertPercentages as _gateway_control_v1_AlertPercentages, AlertPercentages__Output as _gateway_control_v1_AlertPercentages__Output } from './gateway/control/v1/AlertPercentages.js';
import type { AlertSettings as _gateway_control_v1_AlertSettings, AlertSettings__Output as _gateway_control_v1_AlertSettings__Output } from './gateway/control/v1/AlertSettings.js';
import type { ApiKey as _gateway_control_v1_ApiKey, ApiKey__Output as _gateway_control_v1_ApiKey__Output } from './gateway/control/v1/ApiKey.js';
import type { ApplyCatalogRequest as _gateway_control_v1_ApplyCatalogRequest, ApplyCatalogRequest__Output as _gateway_control_v1_ApplyCatalogRequest__Output } from './gateway/control/v1/ApplyCatalogRequest.js';
import type { ApplyCatalogResponse as _gateway_control_v1_ApplyCatalogResponse, ApplyCatalogResponse__Output as _gateway_control_v1_ApplyCatalogResponse__Output } from './gateway/control/v1/ApplyCatalogResponse.js';
import type { AuthenticateKeyRequest as _gateway_control_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _gateway_control_v1_AuthenticateKeyRequest__Output } from './gateway/control/v1/AuthenticateKeyRequest.js';
import type { AuthenticateKeyResponse as _gateway_control_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _gateway_control_v1_AuthenticateKeyResponse__Output } from './gateway/control/v1/AuthenticateKeyResponse.js';
import type { Budget as _gateway_control_v1_Budget, Budget__Output as _gateway_control_v1_Budget__Output } from './gateway/control/v1/Budget.js';
import type { CatalogSnapshot as _gateway_control_v1_CatalogSnapshot, CatalogSnapshot__Output as _gateway_control_v1_CatalogSnapshot__Output } from './gateway/control/v1/CatalogSnapshot.js';
import type { ClaimVideoHoldsRequest as _gateway_control_v1_ClaimVideoHoldsRequest, ClaimVideoHoldsRequest__Output as _gateway_control_v1_ClaimVideoHoldsRequest__Output } from './gateway/control/v1/ClaimVideoHoldsRequest.js';
import type { ClaimVideoJobsRequest as _gateway_control_v1_ClaimVideoJobsRequest, ClaimVideoJobsRequest__Output as _gateway_control_v1_ClaimVideoJobsRequest__Output } from './gateway/control/v1/ClaimVideoJobsRequest.js';
import type { ClaimVideoJobsResponse as _gateway_control_v1_ClaimVideoJobsResponse, ClaimVideoJobsResponse__Output as _gateway_control_v1_ClaimVideoJobsResponse__Output } from './gateway/control/v1/ClaimVideoJobsResponse.js';
import type { ConsoleApplyCatalogRequest as _gateway_control_v1_ConsoleApplyCatalogRequest, ConsoleApplyCatalogRequest__Output as _gateway_control_v1_ConsoleApplyCatalogRequest__Output } from './gateway/control/v1/ConsoleApplyCatalogRequest.js';
import type { ConsoleApproveMcpToolRequest as _gateway_control_v1_ConsoleApproveMcpToolRequest, ConsoleApproveMcpToolRequest__Output as _gateway_control_v1_ConsoleApproveMcpToolRequest__Output } from './gateway/control/v1/ConsoleApproveMcpToolRequest.js';
import type { ConsoleAuditEntry as _gateway_control_v1_ConsoleAuditEntry, ConsoleAuditEntry__Output as _gateway_control_v1_ConsoleAuditEntry__Output } from './gateway/control/v1/ConsoleAuditEntry.js';
import type { ConsoleAuditPage as _gateway_control_v1_ConsoleAuditPage, ConsoleAuditPage__Output as _gateway_control_v1_ConsoleAuditPage__Output } from './gateway/control/v1/ConsoleAuditPage.js';
import type { ConsoleBudgets as _gateway_control_v1_ConsoleBudgets, ConsoleBudgets__Output as _gateway_control_v1_ConsoleBudgets__Output } from './gateway/control/v1/ConsoleBudgets.js';
import type { ConsoleCatalog as _gateway_control_v1_ConsoleCatalog, ConsoleCatalog__Output as _gateway_control_v1_ConsoleCatalog__Output } from './gateway/control/v1/ConsoleCatalog.js';
import type { ConsoleCatalogChange as _gateway_control_v1_ConsoleCatalogChange, ConsoleCatalogChange__Output as _gateway_control_v1_ConsoleCatalogChange__Output } from './gateway/control/v1/ConsoleCatalogChange.js';
import type { ConsoleCreateKeyRequest as _gateway_control_v1_ConsoleCreateKeyRequest, ConsoleCreateKeyRequest__Output as _gateway_control_v1_ConsoleCreateKeyRequest__Output } from './gateway/control/v1/ConsoleCreateKeyRequest.js';
import type { ConsoleCreateProjectRequest as _gateway_control_v1_ConsoleCreateProjectRequest, ConsoleCreateProjectRequest__Output as _gateway_control_v1_ConsoleCreateProjectRequest__Output } from './gateway/control/v1/ConsoleCreateProjectRequest.js';
import type { ConsoleGrantTopUpRequest as _gateway_control_v1_ConsoleGrantTopUpRequest, ConsoleGrantTopUpRequest__Output as _gateway_control_v1_ConsoleGrantTopUpRequest__Output } from './gateway/control/v1/ConsoleGrantTopUpRequest.js';
import type { ConsoleGrantTraceLookupRequest as _gateway_control_v1_ConsoleGrantTraceLookupRequest, ConsoleGrantTraceLookupRequest__Output as _gateway_control_v1_ConsoleGrantTraceLookupRequest__Output } from './gateway/control/v1/ConsoleGrantTraceLookupRequest.js';
import type { ConsoleImagePrice as _gateway_control_v1_ConsoleImagePrice, ConsoleImagePrice__Output as _gateway_control_v1_ConsoleImagePrice__Output } from './gateway/control/v1/ConsoleImagePrice.js';
import type { ConsoleInviteMemberRequest as _gateway_control_v1_ConsoleInviteMemberRequest, ConsoleInviteMemberRequest__Output as _gateway_control_v1_ConsoleInviteMemberRequest__Output } from './gateway/control/v1/ConsoleInviteMemberRequest.js';
import type { ConsoleListAlertsRequest as _gateway_control_v1_ConsoleListAlertsRequest, ConsoleListAlertsRequest__Output as _gateway_control_v1_ConsoleListAlertsRequest__Output } from './gateway/control/v1/ConsoleListAlertsRequest.js';
import type { ConsoleListAuditRequest as _gateway_control_v1_ConsoleListAuditRequest, ConsoleListAuditRequest__Output as _gateway_control_v1_ConsoleListAuditRequest__Output } from './gateway/control/v1/ConsoleListAuditRequest.js';
import type { ConsoleListOrgsRequest as _gateway_control_v1_ConsoleListOrgsRequest, ConsoleListOrgsRequest__Output as _gateway_control_v1_ConsoleListOrgsRequest__Output } from './gateway/control/v1/ConsoleListOrgsRequest.js';
import type { ConsoleMember as _gateway_control_v1_ConsoleMember, ConsoleMember__Output as _gateway_control_v1_ConsoleMember__Output } from './gateway/control/v1/ConsoleMember.js';
import type { ConsoleMembers as _gateway_control_v1_ConsoleMembers, ConsoleMembers__Output as _gateway_control_v1_ConsoleMembers__Output } from './gateway/control/v1/ConsoleMembers.js';
import type { ConsoleModel as _gateway_control_v1_ConsoleModel, ConsoleModel__Output as _gateway_control_v1_ConsoleModel__Output } from './gateway/control/v1/ConsoleModel.js';
import type { ConsoleModels as _gateway_control_v1_ConsoleModels, ConsoleModels__Output as _gateway_control_v1_ConsoleModels__Output } from './gateway/control/v1/ConsoleModels.js';
import type { ConsoleMoneyFormat as _gateway_control_v1_ConsoleMoneyFormat, ConsoleMoneyFormat__Output as _gateway_control_v1_ConsoleMoneyFormat__Output } from './gateway/control/v1/ConsoleMoneyFormat.js';
import type { ConsoleOperatorOrgRequest as _gateway_control_v1_ConsoleOperatorOrgRequest, ConsoleOperatorOrgRequest__Output as _gateway_control_v1_ConsoleOperatorOrgRequest__Output } from './gateway/control/v1/ConsoleOperatorOrgRequest.js';
import type { ConsoleOperatorOrgView as _gateway_control_v1_ConsoleOperatorOrgView, ConsoleOperatorOrgView__Output as _gateway_control_v1_ConsoleOperatorOrgView__Output } from './gateway/control/v1/ConsoleOperatorOrgView.js';
import type { ConsoleRecordAuditRequest as _gateway_control_v1_ConsoleRecordAuditRequest, ConsoleRecordAuditRequest__Output as _gateway_control_v1_ConsoleRecordAuditRequest__Output } from './gateway/control/v1/ConsoleRecordAuditRequest.js';
import type { ConsoleRemoveMemberRequest as _gateway_control_v1_ConsoleRemoveMemberRequest, ConsoleRemoveMemberRequest__Output as _gateway_control_v1_ConsoleRemoveMemberRequest__Output } from './gateway/control/v1/ConsoleRemoveMemberRequest.js';
import type { ConsoleRevokeKeyRequest as _gateway_control_v1_ConsoleRevokeKeyRequest, ConsoleRevokeKeyRequest__Output as _gateway_control_v1_ConsoleRevokeKeyRequest__Output } from './gateway/control/v1/ConsoleRevokeKeyRequest.js';
import type { ConsoleSession as _gateway_control_v1_ConsoleSession, ConsoleSession__Output as _gateway_control_v1_ConsoleSession__Output } from './gateway/control/v1/ConsoleSession.js';
import type { ConsoleSessionRequest as _gateway_control_v1_ConsoleSessionRequest, ConsoleSessionRequest__Output as _gateway_control_v1_ConsoleSessionRequest__Output } from './gateway/control/v1/ConsoleSessionRequest.js';
import type { ConsoleSetAlertSettingsRequest as _gateway_control_v1_ConsoleSetAlertSettingsRequest, ConsoleSetAlertSettingsRequest__Output as _gateway_control_v1_ConsoleSetAlertSettingsRequest__Output } from './gateway/control/v1/ConsoleSetAlertSettingsRequest.js';
import type { ConsoleSetBudgetRequest as _gateway_control_v1_ConsoleSetBudgetRequest, ConsoleSetBudgetRequest__Output as _gateway_control_v1_ConsoleSetBudgetRequest__Output } from './gateway/control/v1/ConsoleSetBudgetRequest.js';
import type { ConsoleSetEndUserBudgetRequest as _gateway_control_v1_ConsoleSetEndUserBudgetRequest, ConsoleSetEndUserBudgetRequest__Output as _gateway_control_v1_ConsoleSetEndUserBudgetRequest__Output } from './gateway/control/v1/ConsoleSetEndUserBudgetRequest.js';
import type { ConsoleSetKeyBudgetRequest as _gateway_control_v1_ConsoleSetKeyBudgetRequest, ConsoleSetKeyBudgetRequest__Output as _gateway_control_v1_ConsoleSetKeyBudgetRequest__Output } from './gateway/control/v1/ConsoleSetKeyBudgetRequest.js';
import type { ConsoleSetMoneyFormatRequest as _gateway_control_v1_ConsoleSetMoneyFormatRequest, ConsoleSetMoneyFormatRequest__Output as _gateway_control_v1_ConsoleSetMoneyFormatRequest__Output } from './gateway/control/v1/ConsoleSetMoneyFormatRequest.js';
import type { ConsoleSetOrgBudgetsRequest as _gateway_control_v1_ConsoleSetOrgBudgetsRequest, ConsoleSetOrgBudgetsRequest__Output as _gateway_control_v1_ConsoleSetOrgBudgetsRequest__Output } from './gateway/control/v1/ConsoleSetOrgBudgetsRequest.js';
import type { ConsoleSetProjectBudgetRequest as _gateway_control_v1_ConsoleSetProjectBudgetRequest, ConsoleSetProjectBudgetRequest__Output as _gateway_control_v1_ConsoleSetProjectBudgetRequest__Output } from './gateway/control/v1/ConsoleSetProjectBudgetRequest.js';
import type { ConsoleToolPrice as _gateway_control_v1_ConsoleToolPrice, ConsoleToolPrice__Output as _gateway_control_v1_ConsoleToolPrice__Output } from './gateway/control/v1/ConsoleToolPrice.js';
import type { ConsoleVideoPrice as _gateway_control_v1_ConsoleVideoPrice, ConsoleVideoPrice__Output as _gateway_control_v1_ConsoleVideoPrice__Output } from './gateway/control/v1/ConsoleVideoPrice.js';
import type { ControlServiceClient as _gateway_control_v1_ControlServiceClient, ControlServiceDefinition as _gateway_control_v1_ControlServiceDefinition } from './gateway/control/v1/ControlService.js';
import type { CreateKeyRequest as _gateway_control_v1_CreateKeyRequest, CreateKeyRequest__Output as _gateway_control_v1_CreateKeyRequest__Output } from './gateway/control/v1/CreateKeyRequest.js';
import type { CreateOrgRequest as _gateway_control_v1_CreateOrgRequest, CreateOrgRequest__Output as _gateway_control_v1_CreateOrgRequest__Output } from './gateway/control/v1/CreateOrgRequest.js';
import type { CreateProjectRequest as _gateway_control_v1_CreateProjectRequest, CreateProjectRequest__Output as _gateway_control_v1_CreateProjectRequest__Output } from './gateway/control/v1/CreateProjectRequest.js';
import type { CreateSignInLinkRequest as _gateway_control_v1_CreateSignInLinkRequest, CreateSignInLinkRequest__Output as _gateway_control_v1_CreateSignInLinkRequest__Output } from './gateway/control/v1/CreateSignInLinkRequest.js';
import type { CreatedKey as _gateway_control_v1_CreatedKey, CreatedKey__Output as _gateway_control_v1_CreatedKey__Output } from './gateway/control/v1/CreatedKey.js';
import type { Deployment as _gateway_control_v1_Deployment, Deployment__Output as _gateway_control_v1_Deployment__Output } from './gateway/control/v1/Deployment.js';
import type { EnableMcpServersRequest as _gateway_control_v1_EnableMcpServersRequest, EnableMcpServersRequest__Output as _gateway_control_v1_EnableMcpServersRequest__Output } from './gateway/control/v1/EnableMcpServersRequest.js';
import type { EnableMcpServersResponse as _gateway_control_v1_EnableMcpServersResponse, EnableMcpServersResponse__Output as _gateway_control_v1_EnableMcpServersResponse__Output } from './gateway/control/v1/EnableMcpServersResponse.js';
import type { EnableModelsRequest as _gateway_control_v1_EnableModelsRequest, EnableModelsRequest__Output as _gateway_control_v1_EnableModelsRequest__Output } from './gateway/control/v1/EnableModelsRequest.js';
import type { EndUserBudget as _gateway_control_v1_EndUserBudget, EndUserBudget__Output as _gateway_control_v1_EndUserBudget__Output } from './gateway/control/v1/EndUserBudget.js';
import type { GetAlertSettingsRequest as _gateway_control_v1_GetAlertSettingsRequest, GetAlertSettingsRequest__Output as _gateway_control_v1_GetAlertSettingsRequest__Output } from './gateway/control/v1/GetAlertSettingsRequest.js';
import type { GetCatalogDocumentRequest as _gateway_control_v1_GetCatalogDocumentRequest, GetCatalogDocumentRequest__Output as _gateway_control_v1_GetCatalogDocumentRequest__Output } from './gateway/control/v1/GetCatalogDocumentRequest.js';
import type { GetCatalogDocumentResponse as _gateway_control_v1_GetCatalogDocumentResponse, GetCatalogDocumentResponse__Output as _gateway_control_v1_GetCatalogDocumentResponse__Output } from './gateway/control/v1/GetCatalogDocumentResponse.js';
import type { GetCatalogRequest as _gateway_control_v1_GetCatalogRequest, GetCatalogRequest__Output as _gateway_control_v1_GetCatalogRequest__Output } from './gateway/control/v1/GetCatalogRequest.js';
import type { GetGuardrailsRequest as _gateway_control_v1_GetGuardrailsRequest, GetGuardrailsRequest__Output as _gateway_control_v1_GetGuardrailsRequest__Output } from './gateway/control/v1/GetGuardrailsRequest.js';
import type { GetTrialPolicyRequest as _gateway_control_v1_GetTrialPolicyRequest, GetTrialPolicyRequest__Output as _gateway_control_v1_GetTrialPolicyRequest__Output } from './gateway/control/v1/GetTrialPolicyRequest.js';
import type { GetVideoJobRequest as _gateway_control_v1_GetVideoJobRequest, GetVideoJobRequest__Output as _gateway_control_v1_GetVideoJobRequest__Output } from './gateway/control/v1/GetVideoJobRequest.js';
import type { Guardrails as _gateway_control_v1_Guardrails, Guardrails__Output as _gateway_control_v1_Guardrails__Output } from './gateway/control/v1/Guardrails.js';
import type { ImagePrice as _gateway_control_v1_ImagePrice, ImagePrice__Output as _gateway_control_v1_ImagePrice__Output } from './gateway/control/v1/ImagePrice.js';
import type { KeyContext as _gateway_control_v1_KeyContext, KeyContext__Output as _gateway_control_v1_KeyContext__Output } from './gateway/control/v1/KeyContext.js';
import type { KeyTags as _gateway_control_v1_KeyTags, KeyTags__Output as _gateway_control_v1_KeyTags__Output } from './gateway/control/v1/KeyTags.js';
import type { ListAlertsRequest as _gateway_control_v1_ListAlertsRequest, ListAlertsRequest__Output as _gateway_control_v1_ListAlertsRequest__Output } from './gateway/control/v1/ListAlertsRequest.js';
import type { ListAlertsResponse as _gateway_control_v1_ListAlertsResponse, ListAlertsResponse__Output as _gateway_control_v1_ListAlertsResponse__Output } from './gateway/control/v1/ListAlertsResponse.js';
import type { ListEndUserBudgetsRequest as _gateway_control_v1_ListEndUserBudgetsRequest, ListEndUserBudgetsRequest__Output as _gateway_control_v1_ListEndUserBudgetsRequest__Output } from './gateway/control/v1/ListEndUserBudgetsRequest.js';
import type { ListEndUserBudgetsResponse as _gateway_control_v1_ListEndUserBudgetsResponse, ListEndUserBudgetsResponse__Output as _gateway_control_v1_ListEndUserBudgetsResponse__Output } from './gateway/control/v1/ListEndUserBudgetsResponse.js';
import type { ListKeysRequest as _gateway_control_v1_ListKeysRequest, ListKeysRequest__Output as _gateway_control_v1_ListKeysRequest__Output } from './gateway/control/v1/ListKeysRequest.js';
import type { ListKeysResponse as _gateway_control_v1_ListKeysResponse, ListKeysResponse__Output as _gateway_control_v1_ListKeysResponse__Output } from './gateway/control/v1/ListKeysResponse.js';
import type { ListMcpToolPinsRequest as _gateway_control_v1_ListMcpToolPinsRequest, ListMcpToolPinsRequest__Output as _gateway_control_v1_ListMcpToolPinsRequest__Output } from './gateway/control/v1/ListMcpToolPinsRequest.js';
import type { ListMcpToolPinsResponse as _gateway_control_v1_ListMcpToolPinsResponse, ListMcpToolPinsResponse__Output as _gateway_control_v1_ListMcpToolPinsResponse__Output } from './gateway/control/v1/ListMcpToolPinsResponse.js';
import type { ListOrgsRequest as _gateway_control_v1_ListOrgsRequest, ListOrgsRequest__Output as _gateway_control_v1_ListOrgsRequest__Output } from './gateway/control/v1/ListOrgsRequest.js';
import type { ListOrgsResponse as _gateway_control_v1_ListOrgsResponse, ListOrgsResponse__Output as _gateway_control_v1_ListOrgsResponse__Output } from './gateway/control/v1/ListOrgsResponse.js';
import type { ListProjectsRequest as _gateway_control_v1_ListProjectsRequest, ListProjectsRequest__Output as _gateway_control_v1_ListProjectsRequest__Output } from './gateway/control/v1/ListProjectsRequest.js';
import type { ListProjectsResponse as _gateway_control_v1_ListProjectsResponse, ListProjectsResponse__Output as _gateway_control_v1_ListProjectsResponse__Output } from './gateway/control/v1/ListProjectsResponse.js';
import type { McpServer as _gateway_control_v1_McpServer, McpServer__Output as _gateway_control_v1_McpServer__Output } from './gateway/control/v1/McpServer.js';
import type { McpTool as _gateway_control_v1_McpTool, McpTool__Output as _gateway_control_v1_McpTool__Output } from './gateway/control/v1/McpTool.js';
import type { McpToolDefinition as _gateway_control_v1_McpToolDefinition, McpToolDefinition__Output as _gateway_control_v1_McpToolDefinition__Output } from './gateway/control/v1/McpToolDefinition.js';
import type { McpToolPin as _gateway_control_v1_McpToolPin, McpToolPin__Output as _gateway_control_v1_McpToolPin__Output } from './gateway/control/v1/McpToolPin.js';
import type { McpToolRef as _gateway_control_v1_McpToolRef, McpToolRef__Output as _gateway_control_v1_McpToolRef__Output } from './gateway/control/v1/McpToolRef.js';
import type { Model as _gateway_control_v1_Model, Model__Output as _gateway_control_v1_Model__Output } from './gateway/control/v1/Model.js';
import type { Org as _gateway_control_v1_Org, Org__Output as _gateway_control_v1_Org__Output } from './gateway/control/v1/Org.js';
import type { Project as _gateway_control_v1_Project, Project__Output as _gateway_control_v1_Project__Output } from './gateway/control/v1/Project.js';
import type { Provider as _gateway_control_v1_Provider, Provider__Output as _gateway_control_v1_Provider__Output } from './gateway/control/v1/Provider.js';
import type { RedeemSignInLinkRequest as _gateway_control_v1_RedeemSignInLinkRequest, RedeemSignInLinkRequest__Output as _gateway_control_v1_RedeemSignInLinkRequest__Output } from './gateway/control/v1/RedeemSignInLinkRequest.js';
import type { RemoveConsoleMemberRequest as _gateway_control_v1_RemoveConsoleMemberRequest, RemoveConsoleMemberRequest__Output as _gateway_control_v1_RemoveConsoleMemberRequest__Output } from './gateway/control/v1/RemoveConsoleMemberRequest.js';
import type { ReportMcpToolsRequest as _gateway_control_v1_ReportMcpToolsRequest, ReportMcpToolsRequest__Output as _gateway_control_v1_ReportMcpToolsRequest__Output } from './gateway/control/v1/ReportMcpToolsRequest.js';
import type { ReportMcpToolsResponse as _gateway_control_v1_ReportMcpToolsResponse, ReportMcpToolsResponse__Output as _gateway_control_v1_ReportMcpToolsResponse__Output } from './gateway/control/v1/ReportMcpToolsResponse.js';
import type { RevokeKeyRequest as _gateway_control_v1_RevokeKeyRequest, RevokeKeyRequest__Output as _gateway_control_v1_RevokeKeyRequest__Output } from './gateway/control/v1/RevokeKeyRequest.js';
import type { SetAlertSettingsRequest as _gateway_control_v1_SetAlertSettingsRequest, SetAlertSettingsRequest__Output as _gateway_control_v1_SetAlertSettingsRequest__Output } from './gateway/control/v1/SetAlertSettingsRequest.js';
import type { SetEndUserBudgetRequest as _gateway_control_v1_SetEndUserBudgetRequest, SetEndUserBudgetRequest__Output as _gateway_control_v1_SetEndUserBudgetRequest__Output } from './gateway/control/v1/SetEndUserBudgetRequest.js';
import type { SetGuardrailsRequest as _gateway_control_v1_SetGuardrailsRequest, SetGuardrailsRequest__Output as _gateway_control_v1_SetGuardrailsRequest__Output } from './gateway/control/v1/SetGuardrailsRequest.js';
import type { SetKeyBudgetRequest as _gateway_control_v1_SetKeyBudgetRequest, SetKeyBudgetRequest__Output as _gateway_control_v1_SetKeyBudgetRequest__Output } from './gateway/control/v1/SetKeyBudgetRequest.js';
import type { SetOrgBudgetRequest as _gateway_control_v1_SetOrgBudgetRequest, SetOrgBudgetRequest__Output as _gateway_control_v1_SetOrgBudgetRequest__Output } from './gateway/control/v1/SetOrgBudgetRequest.js';
import type { SetOrgBudgetsRequest as _gateway_control_v1_SetOrgBudgetsRequest, SetOrgBudgetsRequest__Output as _gateway_control_v1_SetOrgBudgetsRequest__Output } from './gateway/control/v1/SetOrgBudgetsRequest.js';
import type { SetOrgOutputLimitRequest as _gateway_control_v1_SetOrgOutputLimitRequest, SetOrgOutputLimitRequest__Output as _gateway_control_v1_SetOrgOutputLimitRequest__Output } from './gateway/control/v1/SetOrgOutputLimitRequest.js';
import type { SetOrgTrialRequest as _gateway_control_v1_SetOrgTrialRequest, SetOrgTrialRequest__Output as _gateway_control_v1_SetOrgTrialRequest__Output } from './gateway/control/v1/SetOrgTrialRequest.js';
import type { SetProjectBudgetRequest as _gateway_control_v1_SetProjectBudgetRequest, SetProjectBudgetRequest__Output as _gateway_control_v1_SetProjectBudgetRequest__Output } from './gateway/control/v1/SetProjectBudgetRequest.js';
import type { SetTrialPolicyRequest as _gateway_control_v1_SetTrialPolicyRequest, SetTrialPolicyRequest__Output as _gateway_control_v1_SetTrialPolicyRequest__Output } from './gateway/control/v1/SetTrialPolicyRequest.js';
import type { SignInLink as _gateway_control_v1_SignInLink, SignInLink__Output as _gateway_control_v1_SignInLink__Output } from './gateway/control/v1/SignInLink.js';
import type { StartOidcSessionRequest as _gateway_control_v1_StartOidcSessionRequest, StartOidcSessionRequest__Output as _gateway_control_v1_StartOidcSessionRequest__Output } from './gateway/control/v1/StartOidcSessionRequest.js';
import type { TopUpGrant as _gateway_control_v1_TopUpGrant, TopUpGrant__Output as _gateway_control_v1_TopUpGrant__Output } from './gateway/control/v1/TopUpGrant.js';
import type { TraceLookupGrant as _gateway_control_v1_TraceLookupGrant, TraceLookupGrant__Output as _gateway_control_v1_TraceLookupGrant__Output } from './gateway/control/v1/TraceLookupGrant.js';
import type { TrialPolicy as _gateway_control_v1_TrialPolicy, TrialPolicy__Output as _gateway_control_v1_TrialPolicy__Output } from './gateway/control/v1/TrialPolicy.js';
import type { UpdateVideoJobRequest as _gateway_control_v1_UpdateVideoJobRequest, UpdateVideoJobRequest__Output as _gateway_control_v1_UpdateVideoJobRequest__Output } from './gateway/control/v1/UpdateVideoJobRequest.js';
import type { VideoJob as _gateway_control_v1_VideoJob, VideoJob__Output as _gateway_control_v1_VideoJob__Output } from './gateway/control/v1/VideoJob.js';
import type { VideoPrice as _gateway_control_v1_VideoPrice, VideoPrice__Output as _gateway_control_v1_VideoPrice__Output } from './gateway/control/v1/VideoPrice.js';
import type { VideoSpec as _gateway_control_v1_VideoSpec, VideoSpec__Output as _gateway_control_v1_VideoSpec__Output } from './gateway/control/v1/VideoSpec.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    control: {
      v1: {
        AdminService: SubtypeConstructor<typeof grpc.Client, _gateway_control_v1_AdminServiceClient> & { service: _gateway_control_v1_AdminServiceDefinition }
        Alert: MessageTypeDefinition<_gateway_control_v1_Alert, _gateway_control_v1_Alert__Output>
        AlertAmounts: MessageTypeDefinition<_gateway_control_v1_AlertAmounts, _gateway_control_v1_AlertAmounts__Output>
        AlertPercentages: MessageTypeDefinition<_gateway_control_v1_AlertPercentages, _gateway_control_v1_AlertPercentages__Output>
        AlertSettings: MessageTypeDefinition<_gateway_control_v1_AlertSettings, _gateway_control_v1_AlertSettings__Output>
        ApiKey: MessageTypeDefinition<_gateway_control_v1_ApiKey, _gateway_control_v1_ApiKey__Output>
        ApplyCatalogRequest: MessageTypeDefinition<_gateway_control_v1_ApplyCatalogRequest, _gateway_control_v1_ApplyCatalogRequest__Output>
        ApplyCatalogResponse: MessageTypeDefinition<_gateway_control_v1_ApplyCatalogResponse, _gateway_control_v1_ApplyCatalogResponse__Output>
        AuthenticateKeyRequest: MessageTypeDefinition<_gateway_control_v1_AuthenticateKeyRequest, _gateway_control_v1_AuthenticateKeyRequest__Output>
        AuthenticateKeyResponse: MessageTypeDefinition<_gateway_control_v1_AuthenticateKeyResponse, _gateway_control_v1_AuthenticateKeyResponse__Output>
        Budget: MessageTypeDefinition<_gateway_control_v1_Budget, _gateway_control_v1_Budget__Output>
        CatalogSnapshot: MessageTypeDefinition<_gateway_control_v1_CatalogSnapshot, _gateway_control_v1_CatalogSnapshot__Output>
        ClaimVideoHoldsRequest: MessageTypeDefinition<_gateway_control_v1_ClaimVideoHoldsRequest, _gateway_control_v1_ClaimVideoHoldsRequest__Output>
        ClaimVideoJobsRequest: MessageTypeDefinition<_gateway_control_v1_ClaimVideoJobsRequest, _gateway_control_v1_ClaimVideoJobsRequest__Output>
        ClaimVideoJobsResponse: MessageTypeDefinition<_gateway_control_v1_ClaimVideoJobsResponse, _gateway_control_v1_ClaimVideoJobsResponse__Output>
        ConsoleApplyCatalogRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleApplyCatalogRequest, _gateway_control_v1_ConsoleApplyCatalogRequest__Output>
        ConsoleApproveMcpToolRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleApproveMcpToolRequest, _gateway_control_v1_ConsoleApproveMcpToolRequest__Output>
        ConsoleAuditEntry: MessageTypeDefinition<_gateway_control_v1_ConsoleAuditEntry, _gateway_control_v1_ConsoleAuditEntry__Output>
        ConsoleAuditPage: MessageTypeDefinition<_gateway_control_v1_ConsoleAuditPage, _gateway_control_v1_ConsoleAuditPage__Output>
        ConsoleBudgets: MessageTypeDefinition<_gateway_control_v1_ConsoleBudgets, _gateway_control_v1_ConsoleBudgets__Output>
        ConsoleCatalog: MessageTypeDefinition<_gateway_control_v1_ConsoleCatalog, _gateway_control_v1_ConsoleCatalog__Output>
        ConsoleCatalogChange: MessageTypeDefinition<_gateway_control_v1_ConsoleCatalogChange, _gateway_control_v1_ConsoleCatalogChange__Output>
        ConsoleCreateKeyRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleCreateKeyRequest, _gateway_control_v1_ConsoleCreateKeyRequest__Output>
        ConsoleCreateProjectRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleCreateProjectRequest, _gateway_control_v1_ConsoleCreateProjectRequest__Output>
        ConsoleGrantTopUpRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleGrantTopUpRequest, _gateway_control_v1_ConsoleGrantTopUpRequest__Output>
        ConsoleGrantTraceLookupRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleGrantTraceLookupRequest, _gateway_control_v1_ConsoleGrantTraceLookupRequest__Output>
        ConsoleImagePrice: MessageTypeDefinition<_gateway_control_v1_ConsoleImagePrice, _gateway_control_v1_ConsoleImagePrice__Output>
        ConsoleInviteMemberRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleInviteMemberRequest, _gateway_control_v1_ConsoleInviteMemberRequest__Output>
        ConsoleListAlertsRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleListAlertsRequest, _gateway_control_v1_ConsoleListAlertsRequest__Output>
        ConsoleListAuditRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleListAuditRequest, _gateway_control_v1_ConsoleListAuditRequest__Output>
        ConsoleListOrgsRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleListOrgsRequest, _gateway_control_v1_ConsoleListOrgsRequest__Output>
        ConsoleMember: MessageTypeDefinition<_gateway_control_v1_ConsoleMember, _gateway_control_v1_ConsoleMember__Output>
        ConsoleMembers: MessageTypeDefinition<_gateway_control_v1_ConsoleMembers, _gateway_control_v1_ConsoleMembers__Output>
        ConsoleModel: MessageTypeDefinition<_gateway_control_v1_ConsoleModel, _gateway_control_v1_ConsoleModel__Output>
        ConsoleModels: MessageTypeDefinition<_gateway_control_v1_ConsoleModels, _gateway_control_v1_ConsoleModels__Output>
        ConsoleMoneyFormat: MessageTypeDefinition<_gateway_control_v1_ConsoleMoneyFormat, _gateway_control_v1_ConsoleMoneyFormat__Output>
        ConsoleOperatorOrgRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleOperatorOrgRequest, _gateway_control_v1_ConsoleOperatorOrgRequest__Output>
        ConsoleOperatorOrgView: MessageTypeDefinition<_gateway_control_v1_ConsoleOperatorOrgView, _gateway_control_v1_ConsoleOperatorOrgView__Output>
        ConsoleRecordAuditRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleRecordAuditRequest, _gateway_control_v1_ConsoleRecordAuditRequest__Output>
        ConsoleRemoveMemberRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleRemoveMemberRequest, _gateway_control_v1_ConsoleRemoveMemberRequest__Output>
        ConsoleRevokeKeyRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleRevokeKeyRequest, _gateway_control_v1_ConsoleRevokeKeyRequest__Output>
        ConsoleSession: MessageTypeDefinition<_gateway_control_v1_ConsoleSession, _gateway_control_v1_ConsoleSession__Output>
        ConsoleSessionRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSessionRequest, _gateway_control_v1_ConsoleSessionRequest__Output>
        ConsoleSetAlertSettingsRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSetAlertSettingsRequest, _gateway_control_v1_ConsoleSetAlertSettingsRequest__Output>
        ConsoleSetBudgetRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSetBudgetRequest, _gateway_control_v1_ConsoleSetBudgetRequest__Output>
        ConsoleSetEndUserBudgetRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSetEndUserBudgetRequest, _gateway_control_v1_ConsoleSetEndUserBudgetRequest__Output>
        ConsoleSetKeyBudgetRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSetKeyBudgetRequest, _gateway_control_v1_ConsoleSetKeyBudgetRequest__Output>
        ConsoleSetMoneyFormatRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSetMoneyFormatRequest, _gateway_control_v1_ConsoleSetMoneyFormatRequest__Output>
        ConsoleSetOrgBudgetsRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSetOrgBudgetsRequest, _gateway_control_v1_ConsoleSetOrgBudgetsRequest__Output>
        ConsoleSetProjectBudgetRequest: MessageTypeDefinition<_gateway_control_v1_ConsoleSetProjectBudgetRequest, _gateway_control_v1_ConsoleSetProjectBudgetRequest__Output>
        ConsoleToolPrice: MessageTypeDefinition<_gateway_control_v1_ConsoleToolPrice, _gateway_control_v1_ConsoleToolPrice__Output>
        ConsoleVideoPrice: MessageTypeDefinition<_gateway_control_v1_ConsoleVideoPrice, _gateway_control_v1_ConsoleVideoPrice__Output>
        ControlService: SubtypeConstructor<typeof grpc.Client, _gateway_control_v1_ControlServiceClient> & { service: _gateway_control_v1_ControlServiceDefinition }
        CreateKeyRequest: MessageTypeDefinition<_gateway_control_v1_CreateKeyRequest, _gateway_control_v1_CreateKeyRequest__Output>
        CreateOrgRequest: MessageTypeDefinition<_gateway_control_v1_CreateOrgRequest, _gateway_control_v1_CreateOrgRequest__Output>
        CreateProjectRequest: MessageTypeDefinition<_gateway_control_v1_CreateProjectRequest, _gateway_control_v1_CreateProjectRequest__Output>
        CreateSignInLinkRequest: MessageTypeDefinition<_gateway_control_v1_CreateSignInLinkRequest, _gateway_control_v1_CreateSignInLinkRequest__Output>
        CreatedKey: MessageTypeDefinition<_gateway_control_v1_CreatedKey, _gateway_control_v1_CreatedKey__Output>
        Deployment: MessageTypeDefinition<_gateway_control_v1_Deployment, _gateway_control_v1_Deployment__Output>
        EnableMcpServersRequest: MessageTypeDefinition<_gateway_control_v1_EnableMcpServersRequest, _gateway_control_v1_EnableMcpServersRequest__Output>
        EnableMcpServersResponse: MessageTypeDefinition<_gateway_control_v1_EnableMcpServersResponse, _gateway_control_v1_EnableMcpServersResponse__Output>
        EnableModelsRequest: MessageTypeDefinition<_gateway_control_v1_EnableModelsRequest, _gateway_control_v1_EnableModelsRequest__Output>
        EndUserBudget: MessageTypeDefinition<_gateway_control_v1_EndUserBudget, _gateway_control_v1_EndUserBudget__Output>
        GetAlertSettingsRequest: MessageTypeDefinition<_gateway_control_v1_GetAlertSettingsRequest, _gateway_control_v1_GetAlertSettingsRequest__Output>
        GetCatalogDocumentRequest: MessageTypeDefinition<_gateway_control_v1_GetCatalogDocumentRequest, _gateway_control_v1_GetCatalogDocumentRequest__Output>
        GetCatalogDocumentResponse: MessageTypeDefinition<_gateway_control_v1_GetCatalogDocumentResponse, _gateway_control_v1_GetCatalogDocumentResponse__Output>
        GetCatalogRequest: MessageTypeDefinition<_gateway_control_v1_GetCatalogRequest, _gateway_control_v1_GetCatalogRequest__Output>
        GetGuardrailsRequest: MessageTypeDefinition<_gateway_control_v1_GetGuardrailsRequest, _gateway_control_v1_GetGuardrailsRequest__Output>
        GetTrialPolicyRequest: MessageTypeDefinition<_gateway_control_v1_GetTrialPolicyRequest, _gateway_control_v1_GetTrialPolicyRequest__Output>
        GetVideoJobRequest: MessageTypeDefinition<_gateway_control_v1_GetVideoJobRequest, _gateway_control_v1_GetVideoJobRequest__Output>
        Guardrails: MessageTypeDefinition<_gateway_control_v1_Guardrails, _gateway_control_v1_Guardrails__Output>
        ImagePrice: MessageTypeDefinition<_gateway_control_v1_ImagePrice, _gateway_control_v1_ImagePrice__Output>
        KeyContext: MessageTypeDefinition<_gateway_control_v1_KeyContext, _gateway_control_v1_KeyContext__Output>
        KeyTags: MessageTypeDefinition<_gateway_control_v1_KeyTags, _gateway_control_v1_KeyTags__Output>
        ListAlertsRequest: MessageTypeDefinition<_gateway_control_v1_ListAlertsRequest, _gateway_control_v1_ListAlertsRequest__Output>
        ListAlertsResponse: MessageTypeDefinition<_gateway_control_v1_ListAlertsResponse, _gateway_control_v1_ListAlertsResponse__Output>
        ListEndUserBudgetsRequest: MessageTypeDefinition<_gateway_control_v1_ListEndUserBudgetsRequest, _gateway_control_v1_ListEndUserBudgetsRequest__Output>
        ListEndUserBudgetsResponse: MessageTypeDefinition<_gateway_control_v1_ListEndUserBudgetsResponse, _gateway_control_v1_ListEndUserBudgetsResponse__Output>
        ListKeysRequest: MessageTypeDefinition<_gateway_control_v1_ListKeysRequest, _gateway_control_v1_ListKeysRequest__Output>
        ListKeysResponse: MessageTypeDefinition<_gateway_control_v1_ListKeysResponse, _gateway_control_v1_ListKeysResponse__Output>
        ListMcpToolPinsRequest: MessageTypeDefinition<_gateway_control_v1_ListMcpToolPinsRequest, _gateway_control_v1_ListMcpToolPinsRequest__Output>
        ListMcpToolPinsResponse: MessageTypeDefinition<_gateway_control_v1_ListMcpToolPinsResponse, _gateway_control_v1_ListMcpToolPinsResponse__Output>
        ListOrgsRequest: MessageTypeDefinition<_gateway_control_v1_ListOrgsRequest, _gateway_control_v1_ListOrgsRequest__Output>
        ListOrgsResponse: MessageTypeDefinition<_gateway_control_v1_ListOrgsResponse, _gateway_control_v1_ListOrgsResponse__Output>
        ListProjectsRequest: MessageTypeDefinition<_gateway_control_v1_ListProjectsRequest, _gateway_control_v1_ListProjectsRequest__Output>
        ListProjectsResponse: MessageTypeDefinition<_gateway_control_v1_ListProjectsResponse, _gateway_control_v1_ListProjectsResponse__Output>
        McpServer: MessageTypeDefinition<_gateway_control_v1_McpServer, _gateway_control_v1_McpServer__Output>
        McpTool: MessageTypeDefinition<_gateway_control_v1_McpTool, _gateway_control_v1_McpTool__Output>
        McpToolDefinition: MessageTypeDefinition<_gateway_control_v1_McpToolDefinition, _gateway_control_v1_McpToolDefinition__Output>
        McpToolPin: MessageTypeDefinition<_gateway_control_v1_McpToolPin, _gateway_control_v1_McpToolPin__Output>
        McpToolRef: MessageTypeDefinition<_gateway_control_v1_McpToolRef, _gateway_control_v1_McpToolRef__Output>
        Model: MessageTypeDefinition<_gateway_control_v1_Model, _gateway_control_v1_Model__Output>
        Org: MessageTypeDefinition<_gateway_control_v1_Org, _gateway_control_v1_Org__Output>
        Project: MessageTypeDefinition<_gateway_control_v1_Project, _gateway_control_v1_Project__Output>
        Provider: MessageTypeDefinition<_gateway_control_v1_Provider, _gateway_control_v1_Provider__Output>
        RedeemSignInLinkRequest: MessageTypeDefinition<_gateway_control_v1_RedeemSignInLinkRequest, _gateway_control_v1_RedeemSignInLinkRequest__Output>
        RemoveConsoleMemberRequest: MessageTypeDefinition<_gateway_control_v1_RemoveConsoleMemberRequest, _gateway_control_v1_RemoveConsoleMemberRequest__Output>
        ReportMcpToolsRequest: MessageTypeDefinition<_gateway_control_v1_ReportMcpToolsRequest, _gateway_control_v1_ReportMcpToolsRequest__Output>
        ReportMcpToolsResponse: MessageTypeDefinition<_gateway_control_v1_ReportMcpToolsResponse, _gateway_control_v1_ReportMcpToolsResponse__Output>
        RevokeKeyRequest: MessageTypeDefinition<_gateway_control_v1_RevokeKeyRequest, _gateway_control_v1_RevokeKeyRequest__Output>
        SetAlertSettingsRequest: MessageTypeDefinition<_gateway_control_v1_SetAlertSettingsRequest, _gateway_control_v1_SetAlertSettingsRequest__Output>
        SetEndUserBudgetRequest: MessageTypeDefinition<_gateway_control_v1_SetEndUserBudgetRequest, _gateway_control_v1_SetEndUserBudgetRequest__Output>
        SetGuardrailsRequest: MessageTypeDefinition<_gateway_control_v1_SetGuardrailsRequest, _gateway_control_v1_SetGuardrailsRequest__Output>
        SetKeyBudgetRequest: MessageTypeDefinition<_gateway_control_v1_SetKeyBudgetRequest, _gateway_control_v1_SetKeyBudgetRequest__Output>
        SetOrgBudgetRequest: MessageTypeDefinition<_gateway_control_v1_SetOrgBudgetRequest, _gateway_control_v1_SetOrgBudgetRequest__Output>
        SetOrgBudgetsRequest: MessageTypeDefinition<_gateway_control_v1_SetOrgBudgetsRequest, _gateway_control_v1_SetOrgBudgetsRequest__Output>
        SetOrgOutputLimitRequest: MessageTypeDefinition<_gateway_control_v1_SetOrgOutputLimitRequest, _gateway_control_v1_SetOrgOutputLimitRequest__Output>
        SetOrgTrialRequest: MessageTypeDefinition<_gateway_control_v1_SetOrgTrialRequest, _gateway_control_v1_SetOrgTrialRequest__Output>
        SetProjectBudgetRequest: MessageTypeDefinition<_gateway_control_v1_SetProjectBudgetRequest, _gateway_control_v1_SetProjectBudgetRequest__Output>
        SetTrialPolicyRequest: MessageTypeDefinition<_gateway_control_v1_SetTrialPolicyRequest, _gateway_control_v1_SetTrialPolicyRequest__Output>
        SignInLink: MessageTypeDefinition<_gateway_control_v1_SignInLink, _gateway_control_v1_SignInLink__Output>
        StartOidcSessionRequest: MessageTypeDefinition<_gateway_control_v1_StartOidcSessionRequest, _gateway_control_v1_StartOidcSessionRequest__Output>
        TopUpGrant: MessageTypeDefinition<_gateway_control_v1_TopUpGrant, _gateway_control_v1_TopUpGrant__Output>
        TraceLookupGrant: MessageTypeDefinition<_gateway_control_v1_TraceLookupGrant, _gateway_control_v1_TraceLookupGrant__Output>
        TrialPolicy: MessageTypeDefinition<_gateway_control_v1_TrialPolicy, _gateway_control_v1_TrialPolicy__Output>
        UpdateVideoJobRequest: MessageTypeDefinition<_gateway_control_v1_UpdateVideoJobRequest, _gateway_control_v1_UpdateVideoJobRequest__Output>
        VideoJob: MessageTypeDefinition<_gateway_control_v1_VideoJob, _gateway_control_v1_VideoJob__Output>
        VideoPrice: MessageTypeDefinition<_gateway_control_v1_VideoPrice, _gateway_control_v1_VideoPrice__Output>
        VideoSpec: MessageTypeDefinition<_gateway_control_v1_VideoSpec, _gateway_control_v1_VideoSpec__Output>
      }
    }
  }
}

