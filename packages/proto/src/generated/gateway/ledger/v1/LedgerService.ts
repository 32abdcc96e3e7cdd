// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AcquireLeaseRequest as _gateway_ledger_v1_AcquireLeaseRequest, AcquireLeaseRequest__Output as _gateway_ledger_v1_AcquireLeaseRequest__Output } from '../../../gateway/ledger/v1/AcquireLeaseRequest.js';
import type { AdjustmentResponse as _gateway_ledger_v1_AdjustmentResponse, AdjustmentResponse__Output as _gateway_ledger_v1_AdjustmentResponse__Output } from '../../../gateway/ledger/v1/AdjustmentResponse.js';
import type { CheckBooksRequest as _gateway_ledger_v1_CheckBooksRequest, CheckBooksRequest__Output as _gateway_ledger_v1_CheckBooksRequest__Output } from '../../../gateway/ledger/v1/CheckBooksRequest.js';
import type { CheckBooksResponse as _gateway_ledger_v1_CheckBooksResponse, CheckBooksResponse__Output as _gateway_ledger_v1_CheckBooksResponse__Output } from '../../../gateway/ledger/v1/CheckBooksResponse.js';
import type { CostReportRequest as _gateway_ledger_v1_CostReportRequest, CostReportRequest__Output as _gateway_ledger_v1_CostReportRequest__Output } from '../../../gateway/ledger/v1/CostReportRequest.js';
import type { CostReportResponse as _gateway_ledger_v1_CostReportResponse, CostReportResponse__Output as _gateway_ledger_v1_CostReportResponse__Output } from '../../../gateway/ledger/v1/CostReportResponse.js';
import type { CreditNoteRequest as _gateway_ledger_v1_CreditNoteRequest, CreditNoteRequest__Output as _gateway_ledger_v1_CreditNoteRequest__Output } from '../../../gateway/ledger/v1/CreditNoteRequest.js';
import type { Credits as _gateway_ledger_v1_Credits, Credits__Output as _gateway_ledger_v1_Credits__Output } from '../../../gateway/ledger/v1/Credits.js';
import type { ExportUsageRequest as _gateway_ledger_v1_ExportUsageRequest, ExportUsageRequest__Output as _gateway_ledger_v1_ExportUsageRequest__Output } from '../../../gateway/ledger/v1/ExportUsageRequest.js';
import type { FeedPage as _gateway_ledger_v1_FeedPage, FeedPage__Output as _gateway_ledger_v1_FeedPage__Output } from '../../../gateway/ledger/v1/FeedPage.js';
import type { GetCreditsRequest as _gateway_ledger_v1_GetCreditsRequest, GetCreditsRequest__Output as _gateway_ledger_v1_GetCreditsRequest__Output } from '../../../gateway/ledger/v1/GetCreditsRequest.js';
import type { GetOrgBillingRequest as _gateway_ledger_v1_GetOrgBillingRequest, GetOrgBillingRequest__Output as _gateway_ledger_v1_GetOrgBillingRequest__Output } from '../../../gateway/ledger/v1/GetOrgBillingRequest.js';
import type { GetUsageRequest as _gateway_ledger_v1_GetUsageRequest, GetUsageRequest__Output as _gateway_ledger_v1_GetUsageRequest__Output } from '../../../gateway/ledger/v1/GetUsageRequest.js';
import type { GuardrailCountsRequest as _gateway_ledger_v1_GuardrailCountsRequest, GuardrailCountsRequest__Output as _gateway_ledger_v1_GuardrailCountsRequest__Output } from '../../../gateway/ledger/v1/GuardrailCountsRequest.js';
import type { GuardrailCountsResponse as _gateway_ledger_v1_GuardrailCountsResponse, GuardrailCountsResponse__Output as _gateway_ledger_v1_GuardrailCountsResponse__Output } from '../../../gateway/ledger/v1/GuardrailCountsResponse.js';
import type { Lease as _gateway_ledger_v1_Lease, Lease__Output as _gateway_ledger_v1_Lease__Output } from '../../../gateway/ledger/v1/Lease.js';
import type { ListAdjustmentsRequest as _gateway_ledger_v1_ListAdjustmentsRequest, ListAdjustmentsRequest__Output as _gateway_ledger_v1_ListAdjustmentsRequest__Output } from '../../../gateway/ledger/v1/ListAdjustmentsRequest.js';
import type { ListAdjustmentsResponse as _gateway_ledger_v1_ListAdjustmentsResponse, ListAdjustmentsResponse__Output as _gateway_ledger_v1_ListAdjustmentsResponse__Output } from '../../../gateway/ledger/v1/ListAdjustmentsResponse.js';
import type { ListBudgetsRequest as _gateway_ledger_v1_ListBudgetsRequest, ListBudgetsRequest__Output as _gateway_ledger_v1_ListBudgetsRequest__Output } from '../../../gateway/ledger/v1/ListBudgetsRequest.js';
import type { ListBudgetsResponse as _gateway_ledger_v1_ListBudgetsResponse, ListBudgetsResponse__Output as _gateway_ledger_v1_ListBudgetsResponse__Output } from '../../../gateway/ledger/v1/ListBudgetsResponse.js';
import type { ListHoldsRequest as _gateway_ledger_v1_ListHoldsRequest, ListHoldsRequest__Output as _gateway_ledger_v1_ListHoldsRequest__Output } from '../../../gateway/ledger/v1/ListHoldsRequest.js';
import type { ListHoldsResponse as _gateway_ledger_v1_ListHoldsResponse, ListHoldsResponse__Output as _gateway_ledger_v1_ListHoldsResponse__Output } from '../../../gateway/ledger/v1/ListHoldsResponse.js';
import type { ListUsageRequest as _gateway_ledger_v1_ListUsageRequest, ListUsageRequest__Output as _gateway_ledger_v1_ListUsageRequest__Output } from '../../../gateway/ledger/v1/ListUsageRequest.js';
import type { ListUsageResponse as _gateway_ledger_v1_ListUsageResponse, ListUsageResponse__Output as _gateway_ledger_v1_ListUsageResponse__Output } from '../../../gateway/ledger/v1/ListUsageResponse.js';
import type { LookupTraceRequest as _gateway_ledger_v1_LookupTraceRequest, LookupTraceRequest__Output as _gateway_ledger_v1_LookupTraceRequest__Output } from '../../../gateway/ledger/v1/LookupTraceRequest.js';
import type { OrgBalancesRequest as _gateway_ledger_v1_OrgBalancesRequest, OrgBalancesRequest__Output as _gateway_ledger_v1_OrgBalancesRequest__Output } from '../../../gateway/ledger/v1/OrgBalancesRequest.js';
import type { OrgBalancesResponse as _gateway_ledger_v1_OrgBalancesResponse, OrgBalancesResponse__Output as _gateway_ledger_v1_OrgBalancesResponse__Output } from '../../../gateway/ledger/v1/OrgBalancesResponse.js';
import type { OrgBilling as _gateway_ledger_v1_OrgBilling, OrgBilling__Output as _gateway_ledger_v1_OrgBilling__Output } from '../../../gateway/ledger/v1/OrgBilling.js';
import type { PromoCreditRequest as _gateway_ledger_v1_PromoCreditRequest, PromoCreditRequest__Output as _gateway_ledger_v1_PromoCreditRequest__Output } from '../../../gateway/ledger/v1/PromoCreditRequest.js';
import type { ProviderHealthRequest as _gateway_ledger_v1_ProviderHealthRequest, ProviderHealthRequest__Output as _gateway_ledger_v1_ProviderHealthRequest__Output } from '../../../gateway/ledger/v1/ProviderHealthRequest.js';
import type { ProviderHealthResponse as _gateway_ledger_v1_ProviderHealthResponse, ProviderHealthResponse__Output as _gateway_ledger_v1_ProviderHealthResponse__Output } from '../../../gateway/ledger/v1/ProviderHealthResponse.js';
import type { RefundUsageRequest as _gateway_ledger_v1_RefundUsageRequest, RefundUsageRequest__Output as _gateway_ledger_v1_RefundUsageRequest__Output } from '../../../gateway/ledger/v1/RefundUsageRequest.js';
import type { ReleaseLeaseRequest as _gateway_ledger_v1_ReleaseLeaseRequest, ReleaseLeaseRequest__Output as _gateway_ledger_v1_ReleaseLeaseRequest__Output } from '../../../gateway/ledger/v1/ReleaseLeaseRequest.js';
import type { ReplayUsageRequest as _gateway_ledger_v1_ReplayUsageRequest, ReplayUsageRequest__Output as _gateway_ledger_v1_ReplayUsageRequest__Output } from '../../../gateway/ledger/v1/ReplayUsageRequest.js';
import type { ReplayUsageResponse as _gateway_ledger_v1_ReplayUsageResponse, ReplayUsageResponse__Output as _gateway_ledger_v1_ReplayUsageResponse__Output } from '../../../gateway/ledger/v1/ReplayUsageResponse.js';
import type { RepublishJournalRequest as _gateway_ledger_v1_RepublishJournalRequest, RepublishJournalRequest__Output as _gateway_ledger_v1_RepublishJournalRequest__Output } from '../../../gateway/ledger/v1/RepublishJournalRequest.js';
import type { RepublishJournalResponse as _gateway_ledger_v1_RepublishJournalResponse, RepublishJournalResponse__Output as _gateway_ledger_v1_RepublishJournalResponse__Output } from '../../../gateway/ledger/v1/RepublishJournalResponse.js';
import type { SetCreditLimitRequest as _gateway_ledger_v1_SetCreditLimitRequest, SetCreditLimitRequest__Output as _gateway_ledger_v1_SetCreditLimitRequest__Output } from '../../../gateway/ledger/v1/SetCreditLimitRequest.js';
import type { SpendSeriesRequest as _gateway_ledger_v1_SpendSeriesRequest, SpendSeriesRequest__Output as _gateway_ledger_v1_SpendSeriesRequest__Output } from '../../../gateway/ledger/v1/SpendSeriesRequest.js';
import type { SpendSeriesResponse as _gateway_ledger_v1_SpendSeriesResponse, SpendSeriesResponse__Output as _gateway_ledger_v1_SpendSeriesResponse__Output } from '../../../gateway/ledger/v1/SpendSeriesResponse.js';
import type { Statement as _gateway_ledger_v1_Statement, Statement__Output as _gateway_ledger_v1_Statement__Output } from '../../../gateway/ledger/v1/Statement.js';
import type { TopUpRequest as _gateway_ledger_v1_TopUpRequest, TopUpRequest__Output as _gateway_ledger_v1_TopUpRequest__Output } from '../../../gateway/ledger/v1/TopUpRequest.js';
import type { TopUpResponse as _gateway_ledger_v1_TopUpResponse, TopUpResponse__Output as _gateway_ledger_v1_TopUpResponse__Output } from '../../../gateway/ledger/v1/TopUpResponse.js';
import type { UsageFeedRequest as _gateway_ledger_v1_UsageFeedRequest, UsageFeedRequest__Output as _gateway_ledger_v1_UsageFeedRequest__Output } from '../../../gateway/ledger/v1/UsageFeedRequest.js';
import type { UsagePage as _gateway_ledger_v1_UsagePage, UsagePage__Output as _gateway_ledger_v1_UsagePage__Output } from '../../../gateway/ledger/v1/UsagePage.js';
import type { UsageRecord as _gateway_ledger_v1_UsageRecord, UsageRecord__Output as _gateway_ledger_v1_UsageRecord__Output } from '../../../gateway/ledger/v1/UsageRecord.js';
import type { UsageStatementRequest as _gateway_ledger_v1_UsageStatementRequest, UsageStatementRequest__Output as _gateway_ledger_v1_UsageStatementRequest__Output } from '../../../gateway/ledger/v1/UsageStatementRequest.js';

export interface LedgerServiceClient extends grpc.Client {
  AcquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  AcquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  acquireLease(argument: _gateway_ledger_v1_AcquireLeaseRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  
  CheckBooks(argument: _gateway_ledger_v1_CheckBooksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  CheckBooks(argument: _gateway_ledger_v1_CheckBooksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  CheckBooks(argument: _gateway_ledger_v1_CheckBooksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  CheckBooks(argument: _gateway_ledger_v1_CheckBooksRequest, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  checkBooks(argument: _gateway_ledger_v1_CheckBooksRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  checkBooks(argument: _gateway_ledger_v1_CheckBooksRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  checkBooks(argument: _gateway_ledger_v1_CheckBooksRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  checkBooks(argument: _gateway_ledger_v1_CheckBooksRequest, callback: grpc.requestCallback<_gateway_ledger_v1_CheckBooksResponse__Output>): grpc.ClientUnaryCall;
  
  CostReport(argument: _gateway_ledger_v1_CostReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  CostReport(argument: _gateway_ledger_v1_CostReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  CostReport(argument: _gateway_ledger_v1_CostReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  CostReport(argument: _gateway_ledger_v1_CostReportRequest, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  costReport(argument: _gateway_ledger_v1_CostReportRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  costReport(argument: _gateway_ledger_v1_CostReportRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  costReport(argument: _gateway_ledger_v1_CostReportRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  costReport(argument: _gateway_ledger_v1_CostReportRequest, callback: grpc.requestCallback<_gateway_ledger_v1_CostReportResponse__Output>): grpc.ClientUnaryCall;
  
  ExportUsage(argument: _gateway_ledger_v1_ExportUsageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_UsagePage__Output>;
  ExportUsage(argument: _gateway_ledger_v1_ExportUsageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_UsagePage__Output>;
  exportUsage(argument: _gateway_ledger_v1_ExportUsageRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_UsagePage__Output>;
  exportUsage(argument: _gateway_ledger_v1_ExportUsageRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_UsagePage__Output>;
  
  GetCredits(argument: _gateway_ledger_v1_GetCreditsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  GetCredits(argument: _gateway_ledger_v1_GetCreditsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  GetCredits(argument: _gateway_ledger_v1_GetCreditsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  GetCredits(argument: _gateway_ledger_v1_GetCreditsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  getCredits(argument: _gateway_ledger_v1_GetCreditsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  getCredits(argument: _gateway_ledger_v1_GetCreditsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  getCredits(argument: _gateway_ledger_v1_GetCreditsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  getCredits(argument: _gateway_ledger_v1_GetCreditsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Credits__Output>): grpc.ClientUnaryCall;
  
  GetOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  GetOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  GetOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  GetOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  getOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  getOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  getOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  getOrgBilling(argument: _gateway_ledger_v1_GetOrgBillingRequest, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  
  GetUsage(argument: _gateway_ledger_v1_GetUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _gateway_ledger_v1_GetUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _gateway_ledger_v1_GetUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  GetUsage(argument: _gateway_ledger_v1_GetUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _gateway_ledger_v1_GetUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _gateway_ledger_v1_GetUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _gateway_ledger_v1_GetUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  getUsage(argument: _gateway_ledger_v1_GetUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  
  GrantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  GrantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  GrantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  GrantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  grantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  grantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  grantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  grantPromoCredit(argument: _gateway_ledger_v1_PromoCreditRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  
  GuardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  GuardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  GuardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  GuardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  guardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  guardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  guardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  guardrailCounts(argument: _gateway_ledger_v1_GuardrailCountsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_GuardrailCountsResponse__Output>): grpc.ClientUnaryCall;
  
  IssueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  IssueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  IssueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  IssueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  issueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  issueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  issueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  issueCreditNote(argument: _gateway_ledger_v1_CreditNoteRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  
  ListAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  ListAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  ListAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  ListAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  listAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  listAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  listAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  listAdjustments(argument: _gateway_ledger_v1_ListAdjustmentsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListAdjustmentsResponse__Output>): grpc.ClientUnaryCall;
  
  ListBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ListBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ListBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  ListBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  listBudgets(argument: _gateway_ledger_v1_ListBudgetsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListBudgetsResponse__Output>): grpc.ClientUnaryCall;
  
  ListHolds(argument: _gateway_ledger_v1_ListHoldsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  ListHolds(argument: _gateway_ledger_v1_ListHoldsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  ListHolds(argument: _gateway_ledger_v1_ListHoldsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  ListHolds(argument: _gateway_ledger_v1_ListHoldsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  listHolds(argument: _gateway_ledger_v1_ListHoldsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  listHolds(argument: _gateway_ledger_v1_ListHoldsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  listHolds(argument: _gateway_ledger_v1_ListHoldsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  listHolds(argument: _gateway_ledger_v1_ListHoldsRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListHoldsResponse__Output>): grpc.ClientUnaryCall;
  
  ListUsage(argument: _gateway_ledger_v1_ListUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  ListUsage(argument: _gateway_ledger_v1_ListUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  ListUsage(argument: _gateway_ledger_v1_ListUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  ListUsage(argument: _gateway_ledger_v1_ListUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _gateway_ledger_v1_ListUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _gateway_ledger_v1_ListUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _gateway_ledger_v1_ListUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  listUsage(argument: _gateway_ledger_v1_ListUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ListUsageResponse__Output>): grpc.ClientUnaryCall;
  
  LookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  LookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  LookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  LookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  lookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  lookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  lookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  lookupTrace(argument: _gateway_ledger_v1_LookupTraceRequest, callback: grpc.requestCallback<_gateway_ledger_v1_UsageRecord__Output>): grpc.ClientUnaryCall;
  
  OrgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  OrgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  OrgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  OrgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  orgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  orgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  orgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  orgBalances(argument: _gateway_ledger_v1_OrgBalancesRequest, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBalancesResponse__Output>): grpc.ClientUnaryCall;
  
  ProviderHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  ProviderHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  ProviderHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  ProviderHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  providerHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  providerHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  providerHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  providerHealth(argument: _gateway_ledger_v1_ProviderHealthRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ProviderHealthResponse__Output>): grpc.ClientUnaryCall;
  
  RefundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  RefundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  RefundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  RefundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  refundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  refundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  refundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  refundUsage(argument: _gateway_ledger_v1_RefundUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  
  ReleaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  ReleaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  releaseLease(argument: _gateway_ledger_v1_ReleaseLeaseRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Lease__Output>): grpc.ClientUnaryCall;
  
  ReplayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  ReplayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  ReplayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  ReplayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  replayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  replayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  replayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  replayUsage(argument: _gateway_ledger_v1_ReplayUsageRequest, callback: grpc.requestCallback<_gateway_ledger_v1_ReplayUsageResponse__Output>): grpc.ClientUnaryCall;
  
  RepublishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  RepublishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  RepublishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  RepublishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  republishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  republishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  republishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  republishJournal(argument: _gateway_ledger_v1_RepublishJournalRequest, callback: grpc.requestCallback<_gateway_ledger_v1_RepublishJournalResponse__Output>): grpc.ClientUnaryCall;
  
  SetCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  SetCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  SetCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  SetCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  setCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  setCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  setCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  setCreditLimit(argument: _gateway_ledger_v1_SetCreditLimitRequest, callback: grpc.requestCallback<_gateway_ledger_v1_AdjustmentResponse__Output>): grpc.ClientUnaryCall;
  
  SetOrgBilling(argument: _gateway_ledger_v1_OrgBilling, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  SetOrgBilling(argument: _gateway_ledger_v1_OrgBilling, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  SetOrgBilling(argument: _gateway_ledger_v1_OrgBilling, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  SetOrgBilling(argument: _gateway_ledger_v1_OrgBilling, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  setOrgBilling(argument: _gateway_ledger_v1_OrgBilling, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  setOrgBilling(argument: _gateway_ledger_v1_OrgBilling, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  setOrgBilling(argument: _gateway_ledger_v1_OrgBilling, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  setOrgBilling(argument: _gateway_ledger_v1_OrgBilling, callback: grpc.requestCallback<_gateway_ledger_v1_OrgBilling__Output>): grpc.ClientUnaryCall;
  
  SpendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  SpendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  SpendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  SpendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  spendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  spendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  spendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  spendSeries(argument: _gateway_ledger_v1_SpendSeriesRequest, callback: grpc.requestCallback<_gateway_ledger_v1_SpendSeriesResponse__Output>): grpc.ClientUnaryCall;
  
  TopUp(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  TopUp(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  TopUp(argument: _gateway_ledger_v1_TopUpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  TopUp(argument: _gateway_ledger_v1_TopUpRequest, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUp(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUp(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUp(argument: _gateway_ledger_v1_TopUpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUp(argument: _gateway_ledger_v1_TopUpRequest, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  
  TopUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  TopUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  TopUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  TopUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  topUpWithGrant(argument: _gateway_ledger_v1_TopUpRequest, callback: grpc.requestCallback<_gateway_ledger_v1_TopUpResponse__Output>): grpc.ClientUnaryCall;
  
  UsageFeed(argument: _gateway_ledger_v1_UsageFeedRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_FeedPage__Output>;
  UsageFeed(argument: _gateway_ledger_v1_UsageFeedRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_FeedPage__Output>;
  usageFeed(argument: _gateway_ledger_v1_UsageFeedRequest, metadata: grpc.Metadata, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_FeedPage__Output>;
  usageFeed(argument: _gateway_ledger_v1_UsageFeedRequest, options?: grpc.CallOptions): grpc.ClientReadableStream<_gateway_ledger_v1_FeedPage__Output>;
  
  UsageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  UsageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  UsageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  UsageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  usageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  usageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  usageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  usageStatement(argument: _gateway_ledger_v1_UsageStatementRequest, callback: grpc.requestCallback<_gateway_ledger_v1_Statement__Output>): grpc.ClientUnaryCall;
  
}

export interface LedgerServiceHandlers extends grpc.UntypedServiceImplementation {
  AcquireLease: grpc.handleUnaryCall<_gateway_ledger_v1_AcquireLeaseRequest__Output, _gateway_ledger_v1_Lease>;
  
  CheckBooks: grpc.handleUnaryCall<_gateway_ledger_v1_CheckBooksRequest__Output, _gateway_ledger_v1_CheckBooksResponse>;
  
  CostReport: grpc.handleUnaryCall<_gateway_ledger_v1_CostReportRequest__Output, _gateway_ledger_v1_CostReportResponse>;
  
  ExportUsage: grpc.handleServerStreamingCall<_gateway_ledger_v1_ExportUsageRequest__Output, _gateway_ledger_v1_UsagePage>;
  
  GetCredits: grpc.handleUnaryCall<_gateway_ledger_v1_GetCreditsRequest__Output, _gateway_ledger_v1_Credits>;
  
  GetOrgBilling: grpc.handleUnaryCall<_gateway_ledger_v1_GetOrgBillingRequest__Output, _gateway_ledger_v1_OrgBilling>;
  
  GetUsage: grpc.handleUnaryCall<_gateway_ledger_v1_GetUsageRequest__Output, _gateway_ledger_v1_UsageRecord>;
  
  GrantPromoCredit: grpc.handleUnaryCall<_gateway_ledger_v1_PromoCreditRequest__Output, _gateway_ledger_v1_AdjustmentResponse>;
  
  GuardrailCounts: grpc.handleUnaryCall<_gateway_ledger_v1_GuardrailCountsRequest__Output, _gateway_ledger_v1_GuardrailCountsResponse>;
  
  IssueCreditNote: grpc.handleUnaryCall<_gateway_ledger_v1_CreditNoteRequest__Output, _gateway_ledger_v1_AdjustmentResponse>;
  
  ListAdjustments: grpc.handleUnaryCall<_gateway_ledger_v1_ListAdjustmentsRequest__Output, _gateway_ledger_v1_ListAdjustmentsResponse>;
  
  ListBudgets: grpc.handleUnaryCall<_gateway_ledger_v1_ListBudgetsRequest__Output, _gateway_ledger_v1_ListBudgetsResponse>;
  
  ListHolds: grpc.handleUnaryCall<_gateway_ledger_v1_ListHoldsRequest__Output, _gateway_ledger_v1_ListHoldsResponse>;
  
  ListUsage: grpc.handleUnaryCall<_gateway_ledger_v1_ListUsageRequest__Output, _gateway_ledger_v1_ListUsageResponse>;
  
  LookupTrace: grpc.handleUnaryCall<_gateway_ledger_v1_LookupTraceRequest__Output, _gateway_ledger_v1_UsageRecord>;
  
  OrgBalances: grpc.handleUnaryCall<_gateway_ledger_v1_OrgBalancesRequest__Output, _gateway_ledger_v1_OrgBalancesResponse>;
  
  ProviderHealth: grpc.handleUnaryCall<_gateway_ledger_v1_ProviderHealthRequest__Output, _gateway_ledger_v1_ProviderHealthResponse>;
  
  RefundUsage: grpc.handleUnaryCall<_gateway_ledger_v1_RefundUsageRequest__Output, _gateway_ledger_v1_AdjustmentResponse>;
  
  ReleaseLease: grpc.handleUnaryCall<_gateway_ledger_v1_ReleaseLeaseRequest__Output, _gateway_ledger_v1_Lease>;
  
  ReplayUsage: grpc.handleUnaryCall<_gateway_ledger_v1_ReplayUsageRequest__Output, _gateway_ledger_v1_ReplayUsageResponse>;
  
  RepublishJournal: grpc.handleUnaryCall<_gateway_ledger_v1_RepublishJournalRequest__Output, _gateway_ledger_v1_RepublishJournalResponse>;
  
  SetCreditLimit: grpc.handleUnaryCall<_gateway_ledger_v1_SetCreditLimitRequest__Output, _gateway_ledger_v1_AdjustmentResponse>;
  
  SetOrgBilling: grpc.handleUnaryCall<_gateway_ledger_v1_OrgBilling__Output, _gateway_ledger_v1_OrgBilling>;
  
  SpendSeries: grpc.handleUnaryCall<_gateway_ledger_v1_SpendSeriesRequest__Output, _gateway_ledger_v1_SpendSeriesResponse>;
  
  TopUp: grpc.handleUnaryCall<_gateway_ledger_v1_TopUpRequest__Output, _gateway_ledger_v1_TopUpResponse>;
  
  TopUpWithGrant: grpc.handleUnaryCall<_gateway_ledger_v1_TopUpRequest__Output, _gateway_ledger_v1_TopUpResponse>;
  
  UsageFeed: grpc.handleServerStreamingCall<_gateway_ledger_v1_UsageFeedRequest__Output, _gateway_ledger_v1_FeedPage>;
  
  UsageStatement: grpc.handleUnaryCall<_gateway_ledger_v1_UsageStatementRequest__Output, _gateway_ledger_v1_Statement>;
  
}

export interface LedgerServiceDefinition extends grpc.ServiceDefinition {
  AcquireLease: MethodDefinition<_gateway_ledger_v1_AcquireLeaseRequest, _gateway_ledger_v1_Lease, _gateway_ledger_v1_AcquireLeaseRequest__Output, _gateway_ledger_v1_Lease__Output>
  CheckBooks: MethodDefinition<_gateway_ledger_v1_CheckBooksRequest, _gateway_ledger_v1_CheckBooksResponse, _gateway_ledger_v1_CheckBooksRequest__Output, _gateway_ledger_v1_CheckBooksResponse__Output>
  CostReport: MethodDefinition<_gateway_ledger_v1_CostReportRequest, _gateway_ledger_v1_CostReportResponse, _gateway_ledger_v1_CostReportRequest__Output, _gateway_ledger_v1_CostReportResponse__Output>
  ExportUsage: MethodDefinition<_gateway_ledger_v1_ExportUsageRequest, _gateway_ledger_v1_UsagePage, _gateway_ledger_v1_ExportUsageRequest__Output, _gateway_ledger_v1_UsagePage__Output>
  GetCredits: MethodDefinition<_gateway_ledger_v1_GetCreditsRequest, _gateway_ledger_v1_Credits, _gateway_ledger_v1_GetCreditsRequest__Output, _gateway_ledger_v1_Credits__Output>
  GetOrgBilling: MethodDefinition<_gateway_ledger_v1_GetOrgBillingRequest, _gateway_ledger_v1_OrgBilling, _gateway_ledger_v1_GetOrgBillingRequest__Output, _gateway_ledger_v1_OrgBilling__Output>
  GetUsage: MethodDefinition<_gateway_ledger_v1_GetUsageRequest, _gateway_ledger_v1_UsageRecord, _gateway_ledger_v1_GetUsageRequest__Output, _gateway_ledger_v1_UsageRecord__Output>
  GrantPromoCredit: MethodDefinition<_gateway_ledger_v1_PromoCreditRequest, _gateway_ledger_v1_AdjustmentResponse, _gateway_ledger_v1_PromoCreditRequest__Output, _gateway_ledger_v1_AdjustmentResponse__Output>
  GuardrailCounts: MethodDefinition<_gateway_ledger_v1_GuardrailCountsRequest, _gateway_ledger_v1_GuardrailCountsResponse, _gateway_ledger_v1_GuardrailCountsRequest__Output, _gateway_ledger_v1_GuardrailCountsResponse__Output>
  IssueCreditNote: MethodDefinition<_gateway_ledger_v1_CreditNoteRequest, _gateway_ledger_v1_AdjustmentResponse, _gateway_ledger_v1_CreditNoteRequest__Output, _gateway_ledger_v1_AdjustmentResponse__Output>
  ListAdjustments: MethodDefinition<_gateway_ledger_v1_ListAdjustmentsRequest, _gateway_ledger_v1_ListAdjustmentsResponse, _gateway_ledger_v1_ListAdjustmentsRequest__Output, _gateway_ledger_v1_ListAdjustmentsResponse__Output>
  ListBudgets: MethodDefinition<_gateway_ledger_v1_ListBudgetsRequest, _gateway_ledger_v1_ListBudgetsResponse, _gateway_ledger_v1_ListBudgetsRequest__Output, _gateway_ledger_v1_ListBudgetsResponse__Output>
  ListHolds: MethodDefinition<_gateway_ledger_v1_ListHoldsRequest, _gateway_ledger_v1_ListHoldsResponse, _gateway_ledger_v1_ListHoldsRequest__Output, _gateway_ledger_v1_ListHoldsResponse__Output>
  ListUsage: MethodDefinition<_gateway_ledger_v1_ListUsageRequest, _gateway_ledger_v1_ListUsageResponse, _gateway_ledger_v1_ListUsageRequest__Output, _gateway_ledger_v1_ListUsageResponse__Output>
  LookupTrace: MethodDefinition<_gateway_ledger_v1_LookupTraceRequest, _gateway_ledger_v1_UsageRecord, _gateway_ledger_v1_LookupTraceRequest__Output, _gateway_ledger_v1_UsageRecord__Output>
  OrgBalances: MethodDefinition<_gateway_ledger_v1_OrgBalancesRequest, _gateway_ledger_v1_OrgBalancesResponse, _gateway_ledger_v1_OrgBalancesRequest__Output, _gateway_ledger_v1_OrgBalancesResponse__Output>
  ProviderHealth: MethodDefinition<_gateway_ledger_v1_ProviderHealthRequest, _gateway_ledger_v1_ProviderHealthResponse, _gateway_ledger_v1_ProviderHealthRequest__Output, _gateway_ledger_v1_ProviderHealthResponse__Output>
  RefundUsage: MethodDefinition<_gateway_ledger_v1_RefundUsageRequest, _gateway_ledger_v1_AdjustmentResponse, _gateway_ledger_v1_RefundUsageRequest__Output, _gateway_ledger_v1_AdjustmentResponse__Output>
  ReleaseLease: MethodDefinition<_gateway_ledger_v1_ReleaseLeaseRequest, _gateway_ledger_v1_Lease, _gateway_ledger_v1_ReleaseLeaseRequest__Output, _gateway_ledger_v1_Lease__Output>
  ReplayUsage: MethodDefinition<_gateway_ledger_v1_ReplayUsageRequest, _gateway_ledger_v1_ReplayUsageResponse, _gateway_ledger_v1_ReplayUsageRequest__Output, _gateway_ledger_v1_ReplayUsageResponse__Output>
  RepublishJournal: MethodDefinition<_gateway_ledger_v1_RepublishJournalRequest, _gateway_ledger_v1_RepublishJournalResponse, _gateway_ledger_v1_RepublishJournalRequest__Output, _gateway_ledger_v1_RepublishJournalResponse__Output>
  SetCreditLimit: MethodDefinition<_gateway_ledger_v1_SetCreditLimitRequest, _gateway_ledger_v1_AdjustmentResponse, _gateway_ledger_v1_SetCreditLimitRequest__Output, _gateway_ledger_v1_AdjustmentResponse__Output>
  SetOrgBilling: MethodDefinition<_gateway_ledger_v1_OrgBilling, _gateway_ledger_v1_OrgBilling, _gateway_ledger_v1_OrgBilling__Output, _gateway_ledger_v1_OrgBilling__Output>
  SpendSeries: MethodDefinition<_gateway_ledger_v1_SpendSeriesRequest, _gateway_ledger_v1_SpendSeriesResponse, _gateway_ledger_v1_SpendSeriesRequest__Output, _gateway_ledger_v1_SpendSeriesResponse__Output>
  TopUp: MethodDefinition<_gateway_ledger_v1_TopUpRequest, _gateway_ledger_v1_TopUpResponse, _gateway_ledger_v1_TopUpRequest__Output, _gateway_ledger_v1_TopUpResponse__Output>
  TopUpWithGrant: MethodDefinition<_gateway_ledger_v1_TopUpRequest, _gateway_ledger_v1_TopUpResponse, _gateway_ledger_v1_TopUpRequest__Output, _gateway_ledger_v1_TopUpResponse__Output>
  UsageFeed: MethodDefinition<_gateway_ledger_v1_UsageFeedRequest, _gateway_ledger_v1_FeedPage, _gateway_ledger_v1_UsageFeedRequest__Output, _gateway_ledger_v1_FeedPage__Output>
  UsageStatement: MethodDefinition<_gateway_ledger_v1_UsageStatementRequest, _gateway_ledger_v1_Statement, _gateway_ledger_v1_UsageStatementRequest__Output, _gateway_ledger_v1_Statement__Output>
}
