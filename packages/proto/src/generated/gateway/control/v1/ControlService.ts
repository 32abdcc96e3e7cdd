// Original file: ../../proto/gateway/control/v1/control.proto

import type * as grpc from '@grpc/grpc-js'
import type { MethodDefinition } from '@grpc/proto-loader'
import type { AuthenticateKeyRequest as _gateway_control_v1_AuthenticateKeyRequest, AuthenticateKeyRequest__Output as _gateway_control_v1_AuthenticateKeyRequest__Output } from '../../../gateway/control/v1/AuthenticateKeyRequest.js';
import type { AuthenticateKeyResponse as _gateway_control_v1_AuthenticateKeyResponse, AuthenticateKeyResponse__Output as _gateway_control_v1_AuthenticateKeyResponse__Output } from '../../../gateway/control/v1/AuthenticateKeyResponse.js';
import type { CatalogSnapshot as _gateway_control_v1_CatalogSnapshot, CatalogSnapshot__Output as _gateway_control_v1_CatalogSnapshot__Output } from '../../../gateway/control/v1/CatalogSnapshot.js';
import type { ClaimVideoHoldsRequest as _gateway_control_v1_ClaimVideoHoldsRequest, ClaimVideoHoldsRequest__Output as _gateway_control_v1_ClaimVideoHoldsRequest__Output } from '../../../gateway/control/v1/ClaimVideoHoldsRequest.js';
import type { ClaimVideoJobsRequest as _gateway_control_v1_ClaimVideoJobsRequest, ClaimVideoJobsRequest__Output as _gateway_control_v1_ClaimVideoJobsRequest__Output } from '../../../gateway/control/v1/ClaimVideoJobsRequest.js';
import type { ClaimVideoJobsResponse as _gateway_control_v1_ClaimVideoJobsResponse, ClaimVideoJobsResponse__Output as _gateway_control_v1_ClaimVideoJobsResponse__Output } from '../../../gateway/control/v1/ClaimVideoJobsResponse.js';
import type { GetCatalogRequest as _gateway_control_v1_GetCatalogRequest, GetCatalogRequest__Output as _gateway_control_v1_GetCatalogRequest__Output } from '../../../gateway/control/v1/GetCatalogRequest.js';
import type { GetTrialPolicyRequest as _gateway_control_v1_GetTrialPolicyRequest, GetTrialPolicyRequest__Output as _gateway_control_v1_GetTrialPolicyRequest__Output } from '../../../gateway/control/v1/GetTrialPolicyRequest.js';
import type { GetVideoJobRequest as _gateway_control_v1_GetVideoJobRequest, GetVideoJobRequest__Output as _gateway_control_v1_GetVideoJobRequest__Output } from '../../../gateway/control/v1/GetVideoJobRequest.js';
import type { ReportMcpToolsRequest as _gateway_control_v1_ReportMcpToolsRequest, ReportMcpToolsRequest__Output as _gateway_control_v1_ReportMcpToolsRequest__Output } from '../../../gateway/control/v1/ReportMcpToolsRequest.js';
import type { ReportMcpToolsResponse as _gateway_control_v1_ReportMcpToolsResponse, ReportMcpToolsResponse__Output as _gateway_control_v1_ReportMcpToolsResponse__Output } from '../../../gateway/control/v1/ReportMcpToolsResponse.js';
import type { TrialPolicy as _gateway_control_v1_TrialPolicy, TrialPolicy__Output as _gateway_control_v1_TrialPolicy__Output } from '../../../gateway/control/v1/TrialPolicy.js';
import type { UpdateVideoJobRequest as _gateway_control_v1_UpdateVideoJobRequest, UpdateVideoJobRequest__Output as _gateway_control_v1_UpdateVideoJobRequest__Output } from '../../../gateway/control/v1/UpdateVideoJobRequest.js';
import type { VideoJob as _gateway_control_v1_VideoJob, VideoJob__Output as _gateway_control_v1_VideoJob__Output } from '../../../gateway/control/v1/VideoJob.js';

export interface ControlServiceClient extends grpc.Client {
  AuthenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  AuthenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  authenticateKey(argument: _gateway_control_v1_AuthenticateKeyRequest, callback: grpc.requestCallback<_gateway_control_v1_AuthenticateKeyResponse__Output>): grpc.ClientUnaryCall;
  
  ClaimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  ClaimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  ClaimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  ClaimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoHolds(argument: _gateway_control_v1_ClaimVideoHoldsRequest, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  
  ClaimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  ClaimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  ClaimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  ClaimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  claimVideoJobs(argument: _gateway_control_v1_ClaimVideoJobsRequest, callback: grpc.requestCallback<_gateway_control_v1_ClaimVideoJobsResponse__Output>): grpc.ClientUnaryCall;
  
  CreateVideoJob(argument: _gateway_control_v1_VideoJob, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  CreateVideoJob(argument: _gateway_control_v1_VideoJob, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  CreateVideoJob(argument: _gateway_control_v1_VideoJob, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  CreateVideoJob(argument: _gateway_control_v1_VideoJob, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  createVideoJob(argument: _gateway_control_v1_VideoJob, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  createVideoJob(argument: _gateway_control_v1_VideoJob, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  createVideoJob(argument: _gateway_control_v1_VideoJob, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  createVideoJob(argument: _gateway_control_v1_VideoJob, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  
  GetCatalog(argument: _gateway_control_v1_GetCatalogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  GetCatalog(argument: _gateway_control_v1_GetCatalogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  GetCatalog(argument: _gateway_control_v1_GetCatalogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  GetCatalog(argument: _gateway_control_v1_GetCatalogRequest, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  getCatalog(argument: _gateway_control_v1_GetCatalogRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  getCatalog(argument: _gateway_control_v1_GetCatalogRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  getCatalog(argument: _gateway_control_v1_GetCatalogRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  getCatalog(argument: _gateway_control_v1_GetCatalogRequest, callback: grpc.requestCallback<_gateway_control_v1_CatalogSnapshot__Output>): grpc.ClientUnaryCall;
  
  GetTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  GetTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  GetTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  GetTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  getTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  getTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  getTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  getTrialPolicy(argument: _gateway_control_v1_GetTrialPolicyRequest, callback: grpc.requestCallback<_gateway_control_v1_TrialPolicy__Output>): grpc.ClientUnaryCall;
  
  GetVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  GetVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  GetVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  GetVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  getVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  getVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  getVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  getVideoJob(argument: _gateway_control_v1_GetVideoJobRequest, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  
  ReportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  ReportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  ReportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  ReportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  reportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  reportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  reportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  reportMcpTools(argument: _gateway_control_v1_ReportMcpToolsRequest, callback: grpc.requestCallback<_gateway_control_v1_ReportMcpToolsResponse__Output>): grpc.ClientUnaryCall;
  
  UpdateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  UpdateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  UpdateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  UpdateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  updateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, metadata: grpc.Metadata, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  updateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, metadata: grpc.Metadata, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  updateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, options: grpc.CallOptions, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  updateVideoJob(argument: _gateway_control_v1_UpdateVideoJobRequest, callback: grpc.requestCallback<_gateway_control_v1_VideoJob__Output>): grpc.ClientUnaryCall;
  
}

export interface ControlServiceHandlers extends grpc.UntypedServiceImplementation {
  AuthenticateKey: grpc.handleUnaryCall<_gateway_control_v1_AuthenticateKeyRequest__Output, _gateway_control_v1_AuthenticateKeyResponse>;
  
  ClaimVideoHolds: grpc.handleUnaryCall<_gateway_control_v1_ClaimVideoHoldsRequest__Output, _gateway_control_v1_ClaimVideoJobsResponse>;
  
  ClaimVideoJobs: grpc.handleUnaryCall<_gateway_control_v1_ClaimVideoJobsRequest__Output, _gateway_control_v1_ClaimVideoJobsResponse>;
  
  CreateVideoJob: grpc.handleUnaryCall<_gateway_control_v1_VideoJob__Output, _gateway_control_v1_VideoJob>;
  
  GetCatalog: grpc.handleUnaryCall<_gateway_control_v1_GetCatalogRequest__Output, _gateway_control_v1_CatalogSnapshot>;
  
  GetTrialPolicy: grpc.handleUnaryCall<_gateway_control_v1_GetTrialPolicyRequest__Output, _gateway_control_v1_TrialPolicy>;
  
  GetVideoJob: grpc.handleUnaryCall<_gateway_control_v1_GetVideoJobRequest__Output, _gateway_control_v1_VideoJob>;
  
  ReportMcpTools: grpc.handleUnaryCall<_gateway_control_v1_ReportMcpToolsRequest__Output, _gateway_control_v1_ReportMcpToolsResponse>;
  
  UpdateVideoJob: grpc.handleUnaryCall<_gateway_control_v1_UpdateVideoJobRequest__Output, _gateway_control_v1_VideoJob>;
  
}

export interface ControlServiceDefinition extends grpc.ServiceDefinition {
  AuthenticateKey: MethodDefinition<_gateway_control_v1_AuthenticateKeyRequest, _gateway_control_v1_AuthenticateKeyResponse, _gateway_control_v1_AuthenticateKeyRequest__Output, _gateway_control_v1_AuthenticateKeyResponse__Output>
  ClaimVideoHolds: MethodDefinition<_gateway_control_v1_ClaimVideoHoldsRequest, _gateway_control_v1_ClaimVideoJobsResponse, _gateway_control_v1_ClaimVideoHoldsRequest__Output, _gateway_control_v1_ClaimVideoJobsResponse__Output>
  ClaimVideoJobs: MethodDefinition<_gateway_control_v1_ClaimVideoJobsRequest, _gateway_control_v1_ClaimVideoJobsResponse, _gateway_control_v1_ClaimVideoJobsRequest__Output, _gateway_control_v1_ClaimVideoJobsResponse__Output>
  CreateVideoJob: MethodDefinition<_gateway_control_v1_VideoJob, _gateway_control_v1_VideoJob, _gateway_control_v1_VideoJob__Output, _gateway_control_v1_VideoJob__Output>
  GetCatalog: MethodDefinition<_gateway_control_v1_GetCatalogRequest, _gateway_control_v1_CatalogSnapshot, _gateway_control_v1_GetCatalogRequest__Output, _gateway_control_v1_CatalogSnapshot__Output>
  GetTrialPolicy: MethodDefinition<_gateway_control_v1_GetTrialPolicyRequest, _gateway_control_v1_TrialPolicy, _gateway_control_v1_GetTrialPolicyRequest__Output, _gateway_control_v1_TrialPolicy__Output>
  GetVideoJob: MethodDefinition<_gateway_control_v1_GetVideoJobRequest, _gateway_control_v1_VideoJob, _gateway_control_v1_GetVideoJobRequest__Output, _gateway_control_v1_VideoJob__Output>
  ReportMcpTools: MethodDefinition<_gateway_control_v1_ReportMcpToolsRequest, _gateway_control_v1_ReportMcpToolsResponse, _gateway_control_v1_ReportMcpToolsRequest__Output, _gateway_control_v1_ReportMcpToolsResponse__Output>
  UpdateVideoJob: MethodDefinition<_gateway_control_v1_UpdateVideoJobRequest, _gateway_control_v1_VideoJob, _gateway_control_v1_UpdateVideoJobRequest__Output, _gateway_control_v1_VideoJob__Output>
}
