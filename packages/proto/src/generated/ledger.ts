import type * as grpc from '@grpc/grpc-js';
import type { MessageTypeDefinition } from '@grpc/proto-loader';

import type { AcquireLeaseRequest as _gateway_ledger_v1_AcquireLeaseRequest, AcquireLeaseRequest__Output as _gateway_ledger_v1_AcquireLeaseRequest__Output } from './gateway/ledger/v1/AcquireLeaseRequest.js';
import type { Adjustment as _gateway_ledger_v1_Adjustment, Adjustment__Output as _gateway_ledger_v1_Adjustment__Output } from './gateway/ledger/v1/Adjustment.js';
import type { AdjustmentResponse as _gateway_ledger_v1_AdjustmentResponse, AdjustmentResponse__Output as _gateway_ledger_v1_AdjustmentResponse__Output } from './gateway/ledger/v1/AdjustmentResponse.js';
import type { BudgetWindow as _gateway_ledger_v1_BudgetWindow, BudgetWindow__Output as _gateway_ledger_v1_BudgetWindow__Output } from './gateway/ledger/v1/BudgetWindow.js';
import type { CheckBooksRequest as _gateway_ledger_v1_CheckBooksRequest, CheckBooksRequest__Output as _gateway_ledger_v1_CheckBooksRequest__Output } from './gateway/ledger/v1/CheckBooksRequest.js';
import type { CheckBooksResponse as _gateway_ledger_v1_CheckBooksResponse, CheckBooksResponse__Output as _gateway_ledger_v1_CheckBooksResponse__Output } from './gateway/ledger/v1/CheckBooksResponse.js';
import type { CostReportRequest as _gateway_ledger_v1_CostReportRequest, CostReportRequest__Output as _gateway_ledger_v1_CostReportRequest__Output } from './gateway/ledger/v1/CostReportRequest.js';
import type { CostReportResponse as _gateway_ledger_v1_CostReportResponse, CostReportResponse__Output as _gateway_ledger_v1_CostReportResponse__Output } from './gateway/ledger/v1/CostReportResponse.js';
import type { CreditNoteRequest as _gateway_ledger_v1_CreditNoteRequest, CreditNoteRequest__Output as _gateway_ledger_v1_CreditNoteRequest__Output } from './gateway/ledger/v1/CreditNoteRequest.js';
import type { Credits as _gateway_ledger_v1_Credits, Credits__Output as _gateway_ledger_v1_Credits__Output } from './gateway/ledger/v1/Credits.js';
import type { DeploymentHealth as _gateway_ledger_v1_DeploymentHealth, DeploymentHealth__Output as _gateway_ledger_v1_DeploymentHealth__Output } from './gateway/ledger/v1/DeploymentHealth.js';
import type { ExportUsageRequest as _gateway_ledger_v1_ExportUsageRequest, ExportUsageRequest__Output as _gateway_ledger_v1_ExportUsageRequest__Output } from './gateway/ledger/v1/ExportUsageRequest.js';
import type { FeedEntry as _gateway_ledger_v1_FeedEntry, FeedEntry__Output as _gateway_ledger_v1_FeedEntry__Output } from './gateway/ledger/v1/FeedEntry.js';
import type { FeedPage as _gateway_ledger_v1_FeedPage, FeedPage__Output as _gateway_ledger_v1_FeedPage__Output } from './gateway/ledger/v1/FeedPage.js';
import type { GetCreditsRequest as _gateway_ledger_v1_GetCreditsRequest, GetCreditsRequest__Output as _gateway_ledger_v1_GetCreditsRequest__Output } from './gateway/ledger/v1/GetCreditsRequest.js';
import type { GetOrgBillingRequest as _gateway_ledger_v1_GetOrgBillingRequest, GetOrgBillingRequest__Output as _gateway_ledger_v1_GetOrgBillingRequest__Output } from './gateway/ledger/v1/GetOrgBillingRequest.js';
import type { GetUsageRequest as _gateway_ledger_v1_GetUsageRequest, GetUsageRequest__Output as _gateway_ledger_v1_GetUsageRequest__Output } from './gateway/ledger/v1/GetUsageRequest.js';
import type { GuardrailCount as _gateway_ledger_v1_GuardrailCount, GuardrailCount__Output as _gateway_ledger_v1_GuardrailCount__Output } from './gateway/ledger/v1/GuardrailCount.js';
import type { GuardrailCountsRequest as _gateway_ledger_v1_GuardrailCountsRequest, GuardrailCountsRequest__Output as _gateway_ledger_v1_GuardrailCountsRequest__Output } from './gateway/ledger/v1/GuardrailCountsRequest.js';
import type { GuardrailCountsResponse as _gateway_ledger_v1_GuardrailCountsResponse, GuardrailCountsResponse__Output as _gateway_ledger_v1_GuardrailCountsResponse__Output } from './gateway/ledger/v1/GuardrailCountsResponse.js';
import type { Lease as _gateway_ledger_v1_Lease, Lease__Output as _gateway_ledger_v1_Lease__Output } from './gateway/ledger/v1/Lease.js';
import type { LedgerServiceClient as _gateway_ledger_v1_LedgerServiceClient, LedgerServiceDefinition as _gateway_ledger_v1_LedgerServiceDefinition } from './gateway/ledger/v1/LedgerService.js';
import type { ListAdjustmentsRequest as _gateway_ledger_v1_ListAdjustmentsRequest, ListAdjustmentsRequest__Output as _gateway_ledger_v1_ListAdjustmentsRequest__Output } from './gateway/ledger/v1/ListAdjustmentsRequest.js';
import type { ListAdjustmentsResponse as _gateway_ledger_v1_ListAdjustmentsResponse, ListAdjustmentsResponse__Output as _gateway_ledger_v1_ListAdjustmentsResponse__Output } from './gateway/ledger/v1/ListAdjustmentsResponse.js';
import type { ListBudgetsRequest as _gateway_ledger_v1_ListBudgetsRequest, ListBudgetsRequest__Output as _gateway_ledger_v1_ListBudgetsRequest__Output } from './gateway/ledger/v1/ListBudgetsRequest.js';
import type { ListBudgetsResponse as _gateway_ledger_v1_ListBudgetsResponse, ListBudgetsResponse__Output as _gateway_ledger_v1_ListBudgetsResponse__Output } from './gateway/ledger/v1/ListBudgetsResponse.js';
import type { ListHoldsRequest as _gateway_ledger_v1_ListHoldsRequest, ListHoldsRequest__Output as _gateway_ledger_v1_ListHoldsRequest__Output } from './gateway/ledger/v1/ListHoldsRequest.js';
import type { ListHoldsResponse as _gateway_ledger_v1_ListHoldsResponse, ListHoldsResponse__Output as _gateway_ledger_v1_ListHoldsResponse__Output } from './gateway/ledger/v1/ListHoldsResponse.js';
import type { ListUsageRequest as _gateway_ledger_v1_ListUsageRequest, ListUsageRequest__Output as _gateway_ledger_v1_ListUsageRequest__Output } from './gateway/ledger/v1/ListUsageRequest.js';
import type { ListUsageResponse as _gateway_ledger_v1_ListUsageResponse, ListUsageResponse__Output as _gateway_ledger_v1_ListUsageResponse__Output } from './gateway/ledger/v1/ListUsageResponse.js';
import type { LookupTraceRequest as _gateway_ledger_v1_LookupTraceRequest, LookupTraceRequest__Output as _gateway_ledger_v1_LookupTraceRequest__Output } from './gateway/ledger/v1/LookupTraceRequest.js';
import type { OrgBalance as _gateway_ledger_v1_OrgBalance, OrgBalance__Output as _gateway_ledger_v1_OrgBalance__Output } from './gateway/ledger/v1/OrgBalance.js';
import type { OrgBalancesRequest as _gateway_ledger_v1_OrgBalancesRequest, OrgBalancesRequest__Output as _gateway_ledger_v1_OrgBalancesRequest__Output } from './gateway/ledger/v1/OrgBalancesRequest.js';
import type { OrgBalancesResponse as _gateway_ledger_v1_OrgBalancesResponse, OrgBalancesResponse__Output as _gateway_ledger_v1_OrgBalancesResponse__Output } from './gateway/ledger/v1/OrgBalancesResponse.js';
import type { OrgBilling as _gateway_ledger_v1_OrgBilling, OrgBilling__Output as _gateway_ledger_v1_OrgBilling__Output } from './gateway/ledger/v1/OrgBilling.js';
import type { OrgMargin as _gateway_ledger_v1_OrgMargin, OrgMargin__Output as _gateway_ledger_v1_OrgMargin__Output } from './gateway/ledger/v1/OrgMargin.js';
import type { PromoCreditRequest as _gateway_ledger_v1_PromoCreditRequest, PromoCreditRequest__Output as _gateway_ledger_v1_PromoCreditRequest__Output } from './gateway/ledger/v1/PromoCreditRequest.js';
import type { ProviderClassCost as _gateway_ledger_v1_ProviderClassCost, ProviderClassCost__Output as _gateway_ledger_v1_ProviderClassCost__Output } from './gateway/ledger/v1/ProviderClassCost.js';
import type { ProviderDayCost as _gateway_ledger_v1_ProviderDayCost, ProviderDayCost__Output as _gateway_ledger_v1_ProviderDayCost__Output } from './gateway/ledger/v1/ProviderDayCost.js';
import type { ProviderHealthRequest as _gateway_ledger_v1_ProviderHealthRequest, ProviderHealthRequest__Output as _gateway_ledger_v1_ProviderHealthRequest__Output } from './gateway/ledger/v1/ProviderHealthRequest.js';
import type { ProviderHealthResponse as _gateway_ledger_v1_ProviderHealthResponse, ProviderHealthResponse__Output as _gateway_ledger_v1_ProviderHealthResponse__Output } from './gateway/ledger/v1/ProviderHealthResponse.js';
import type { RefundUsageRequest as _gateway_ledger_v1_RefundUsageRequest, RefundUsageRequest__Output as _gateway_ledger_v1_RefundUsageRequest__Output } from './gateway/ledger/v1/RefundUsageRequest.js';
import type { ReleaseLeaseRequest as _gateway_ledger_v1_ReleaseLeaseRequest, ReleaseLeaseRequest__Output as _gateway_ledger_v1_ReleaseLeaseRequest__Output } from './gateway/ledger/v1/ReleaseLeaseRequest.js';
import type { ReplayUsageRequest as _gateway_ledger_v1_ReplayUsageRequest, ReplayUsageRequest__Output as _gateway_ledger_v1_ReplayUsageRequest__Output } from './gateway/ledger/v1/ReplayUsageRequest.js';
import type { ReplayUsageResponse as _gateway_ledger_v1_ReplayUsageResponse, ReplayUsageResponse__Output as _gateway_ledger_v1_ReplayUsageResponse__Output } from './gateway/ledger/v1/ReplayUsageResponse.js';
import type { RepublishJournalRequest as _gateway_ledger_v1_RepublishJournalRequest, RepublishJournalRequest__Output as _gateway_ledger_v1_RepublishJournalRequest__Output } from './gateway/ledger/v1/RepublishJournalRequest.js';
import type { RepublishJournalResponse as _gateway_ledger_v1_RepublishJournalResponse, RepublishJournalResponse__Output as _gateway_ledger_v1_RepublishJournalResponse__Output } from './gateway/ledger/v1/RepublishJournalResponse.js';
import type { SetCreditLimitRequest as _gateway_ledger_v1_SetCreditLimitRequest, SetCreditLimitRequest__Output as _gateway_ledger_v1_SetCreditLimitRequest__Output } from './gateway/ledger/v1/SetCreditLimitRequest.js';
import type { SpendPoint as _gateway_ledger_v1_SpendPoint, SpendPoint__Output as _gateway_ledger_v1_SpendPoint__Output } from './gateway/ledger/v1/SpendPoint.js';
import type { SpendSeriesRequest as _gateway_ledger_v1_SpendSeriesRequest, SpendSeriesRequest__Output as _gateway_ledger_v1_SpendSeriesRequest__Output } from './gateway/ledger/v1/SpendSeriesRequest.js';
import type { SpendSeriesResponse as _gateway_ledger_v1_SpendSeriesResponse, SpendSeriesResponse__Output as _gateway_ledger_v1_SpendSeriesResponse__Output } from './gateway/ledger/v1/SpendSeriesResponse.js';
import type { Statement as _gateway_ledger_v1_Statement, Statement__Output as _gateway_ledger_v1_Statement__Output } from './gateway/ledger/v1/Statement.js';
import type { StatementLine as _gateway_ledger_v1_StatementLine, StatementLine__Output as _gateway_ledger_v1_StatementLine__Output } from './gateway/ledger/v1/StatementLine.js';
import type { TopUpRecord as _gateway_ledger_v1_TopUpRecord, TopUpRecord__Output as _gateway_ledger_v1_TopUpRecord__Output } from './gateway/ledger/v1/TopUpRecord.js';
import type { TopUpRequest as _gateway_ledger_v1_TopUpRequest, TopUpRequest__Output as _gateway_ledger_v1_TopUpRequest__Output } from './gateway/ledger/v1/TopUpRequest.js';
import type { TopUpResponse as _gateway_ledger_v1_TopUpResponse, TopUpResponse__Output as _gateway_ledger_v1_TopUpResponse__Output } from './gateway/ledger/v1/TopUpResponse.js';
import type { UsageFeedRequest as _gateway_ledger_v1_UsageFeedRequest, UsageFeedRequest__Output as _gateway_ledger_v1_UsageFeedRequest__Output } from './gateway/ledger/v1/UsageFeedRequest.js';
import type { UsagePage as _gateway_ledger_v1_UsagePage, UsagePage__Output as _gateway_ledger_v1_UsagePage__Output } from './gateway/ledger/v1/UsagePage.js';
import type { UsageRecord as _gateway_ledger_v1_UsageRecord, UsageRecord__Output as _gateway_ledger_v1_UsageRecord__Output } from './gateway/ledger/v1/UsageRecord.js';
import type { UsageStatementRequest as _gateway_ledger_v1_UsageStatementRequest, UsageStatementRequest__Output as _gateway_ledger_v1_UsageStatementRequest__Output } from './gateway/ledger/v1/UsageStatementRequest.js';

type SubtypeConstructor<Constructor extends new (...args: any) => any, Subtype> = {
  new(...args: ConstructorParameters<Constructor>): Subtype;
};

export interface ProtoGrpcType {
  gateway: {
    ledger: {
      v1: {
        AcquireLeaseRequest: MessageTypeDefinition<_gateway_ledger_v1_AcquireLeaseRequest, _gateway_ledger_v1_AcquireLeaseRequest__Output>
        Adjustment: MessageTypeDefinition<_gateway_ledger_v1_Adjustment, _gateway_ledger_v1_Adjustment__Output>
        AdjustmentResponse: MessageTypeDefinition<_gateway_ledger_v1_AdjustmentResponse, _gateway_ledger_v1_AdjustmentResponse__Output>
        BudgetWindow: MessageTypeDefinition<_gateway_ledger_v1_BudgetWindow, _gateway_ledger_v1_BudgetWindow__Output>
        CheckBooksRequest: MessageTypeDefinition<_gateway_ledger_v1_CheckBooksRequest, _gateway_ledger_v1_CheckBooksRequest__Output>
        CheckBooksResponse: MessageTypeDefinition<_gateway_ledger_v1_CheckBooksResponse, _gateway_ledger_v1_CheckBooksResponse__Output>
        CostReportRequest: MessageTypeDefinition<_gateway_ledger_v1_CostReportRequest, _gateway_ledger_v1_CostReportRequest__Output>
        CostReportResponse: MessageTypeDefinition<_gateway_ledger_v1_CostReportResponse, _gateway_ledger_v1_CostReportResponse__Output>
        CreditNoteRequest: MessageTypeDefinition<_gateway_ledger_v1_CreditNoteRequest, _gateway_ledger_v1_CreditNoteRequest__Output>
        Credits: MessageTypeDefinition<_gateway_ledger_v1_Credits, _gateway_ledger_v1_Credits__Output>
        DeploymentHealth: MessageTypeDefinition<_gateway_ledger_v1_DeploymentHealth, _gateway_ledger_v1_DeploymentHealth__Output>
        ExportUsageRequest: MessageTypeDefinition<_gateway_ledger_v1_ExportUsageRequest, _gateway_ledger_v1_ExportUsageRequest__Output>
        FeedEntry: MessageTypeDefinition<_gateway_ledger_v1_FeedEntry, _gateway_ledger_v1_FeedEntry__Output>
        FeedPage: MessageTypeDefinition<_gateway_ledger_v1_FeedPage, _gateway_ledger_v1_FeedPage__Output>
        GetCreditsRequest: MessageTypeDefinition<_gateway_ledger_v1_GetCreditsRequest, _gateway_ledger_v1_GetCreditsRequest__Output>
        GetOrgBillingRequest: MessageTypeDefinition<_gateway_ledger_v1_GetOrgBillingRequest, _gateway_ledger_v1_GetOrgBillingRequest__Output>
        GetUsageRequest: MessageTypeDefinition<_gateway_ledger_v1_GetUsageRequest, _gateway_ledger_v1_GetUsageRequest__Output>
        GuardrailCount: MessageTypeDefinition<_gateway_ledger_v1_GuardrailCount, _gateway_ledger_v1_GuardrailCount__Output>
        GuardrailCountsRequest: MessageTypeDefinition<_gateway_ledger_v1_GuardrailCountsRequest, _gateway_ledger_v1_GuardrailCountsRequest__Output>
        GuardrailCountsResponse: MessageTypeDefinition<_gateway_ledger_v1_GuardrailCountsResponse, _gateway_ledger_v1_GuardrailCountsResponse__Output>
        Lease: MessageTypeDefinition<_gateway_ledger_v1_Lease, _gateway_ledger_v1_Lease__Output>
        LedgerService: SubtypeConstructor<typeof grpc.Client, _gateway_ledger_v1_LedgerServiceClient> & { service: _gateway_ledger_v1_LedgerServiceDefinition }
        ListAdjustmentsRequest: MessageTypeDefinition<_gateway_ledger_v1_ListAdjustmentsRequest, _gateway_ledger_v1_ListAdjustmentsRequest__Output>
        ListAdjustmentsResponse: MessageTypeDefinition<_gateway_ledger_v1_ListAdjustmentsResponse, _gateway_ledger_v1_ListAdjustmentsResponse__Output>
        ListBudgetsRequest: MessageTypeDefinition<_gateway_ledger_v1_ListBudgetsRequest, _gateway_ledger_v1_ListBudgetsRequest__Output>
        ListBudgetsResponse: MessageTypeDefinition<_gateway_ledger_v1_ListBudgetsResponse, _gateway_ledger_v1_ListBudgetsResponse__Output>
        ListHoldsRequest: MessageTypeDefinition<_gateway_ledger_v1_ListHoldsRequest, _gateway_ledger_v1_ListHoldsRequest__Output>
        ListHoldsResponse: MessageTypeDefinition<_gateway_ledger_v1_ListHoldsResponse, _gateway_ledger_v1_ListHoldsResponse__Output>
        ListUsageRequest: MessageTypeDefinition<_gateway_ledger_v1_ListUsageRequest, _gateway_ledger_v1_ListUsageRequest__Output>
        ListUsageResponse: MessageTypeDefinition<_gateway_ledger_v1_ListUsageResponse, _gateway_ledger_v1_ListUsageResponse__Output>
        LookupTraceRequest: MessageTypeDefinition<_gateway_ledger_v1_LookupTraceRequest, _gateway_ledger_v1_LookupTraceRequest__Output>
        OrgBalance: MessageTypeDefinition<_gateway_ledger_v1_OrgBalance, _gateway_ledger_v1_OrgBalance__Output>
        OrgBalancesRequest: MessageTypeDefinition<_gateway_ledger_v1_OrgBalancesRequest, _gateway_ledger_v1_OrgBalancesRequest__Output>
        OrgBalancesResponse: MessageTypeDefinition<_gateway_ledger_v1_OrgBalancesResponse, _gateway_ledger_v1_OrgBalancesResponse__Output>
        OrgBilling: MessageTypeDefinition<_gateway_ledger_v1_OrgBilling, _gateway_ledger_v1_OrgBilling__Output>
        OrgMargin: MessageTypeDefinition<_gateway_ledger_v1_OrgMargin, _gateway_ledger_v1_OrgMargin__Output>
        PromoCreditRequest: MessageTypeDefinition<_gateway_ledger_v1_PromoCreditRequest, _gateway_ledger_v1_PromoCreditRequest__Output>
        ProviderClassCost: MessageTypeDefinition<_gateway_ledger_v1_ProviderClassCost, _gateway_ledger_v1_ProviderClassCost__Output>
        ProviderDayCost: MessageTypeDefinition<_gateway_ledger_v1_ProviderDayCost, _gateway_ledger_v1_ProviderDayCost__Output>
        ProviderHealthRequest: MessageTypeDefinition<_gateway_ledger_v1_ProviderHealthRequest, _gateway_ledger_v1_ProviderHealthRequest__Output>
        ProviderHealthResponse: MessageTypeDefinition<_gateway_ledger_v1_ProviderHealthResponse, _gateway_ledger_v1_ProviderHealthResponse__Output>
        RefundUsageRequest: MessageTypeDefinition<_gateway_ledger_v1_RefundUsageRequest, _gateway_ledger_v1_RefundUsageRequest__Output>
        ReleaseLeaseRequest: MessageTypeDefinition<_gateway_ledger_v1_ReleaseLeaseRequest, _gateway_ledger_v1_ReleaseLeaseRequest__Output>
        ReplayUsageRequest: MessageTypeDefinition<_gateway_ledger_v1_ReplayUsageRequest, _gateway_ledger_v1_ReplayUsageRequest__Output>
        ReplayUsageResponse: MessageTypeDefinition<_gateway_ledger_v1_ReplayUsageResponse, _gateway_ledger_v1_ReplayUsageResponse__Output>
        RepublishJournalRequest: MessageTypeDefinition<_gateway_ledger_v1_RepublishJournalRequest, _gateway_ledger_v1_RepublishJournalRequest__Output>
        RepublishJournalResponse: MessageTypeDefinition<_gateway_ledger_v1_RepublishJournalResponse, _gateway_ledger_v1_RepublishJournalResponse__Output>
        SetCreditLimitRequest: MessageTypeDefinition<_gateway_ledger_v1_SetCreditLimitRequest, _gateway_ledger_v1_SetCreditLimitRequest__Output>
        SpendPoint: MessageTypeDefinition<_gateway_ledger_v1_SpendPoint, _gateway_ledger_v1_SpendPoint__Output>
        SpendSeriesRequest: MessageTypeDefinition<_gateway_ledger_v1_SpendSeriesRequest, _gateway_ledger_v1_SpendSeriesRequest__Output>
        SpendSeriesResponse: MessageTypeDefinition<_gateway_ledger_v1_SpendSeriesResponse, _gateway_ledger_v1_SpendSeriesResponse__Output>
        Statement: MessageTypeDefinition<_gateway_ledger_v1_Statement, _gateway_ledger_v1_Statement__Output>
        StatementLine: MessageTypeDefinition<_gateway_ledger_v1_StatementLine, _gateway_ledger_v1_StatementLine__Output>
        TopUpRecord: MessageTypeDefinition<_gateway_ledger_v1_TopUpRecord, _gateway_ledger_v1_TopUpRecord__Output>
        TopUpRequest: MessageTypeDefinition<_gateway_ledger_v1_TopUpRequest, _gateway_ledger_v1_TopUpRequest__Output>
        TopUpResponse: MessageTypeDefinition<_gateway_ledger_v1_TopUpResponse, _gateway_ledger_v1_TopUpResponse__Output>
        UsageFeedRequest: MessageTypeDefinition<_gateway_ledger_v1_UsageFeedRequest, _gateway_ledger_v1_UsageFeedRequest__Output>
        UsagePage: MessageTypeDefinition<_gateway_ledger_v1_UsagePage, _gateway_ledger_v1_UsagePage__Output>
        UsageRecord: MessageTypeDefinition<_gateway_ledger_v1_UsageRecord, _gateway_ledger_v1_UsageRecord__Output>
        UsageStatementRequest: MessageTypeDefinition<_gateway_ledger_v1_UsageStatementRequest, _gateway_ledger_v1_UsageStatementRequest__Output>
      }
    }
  }
}

