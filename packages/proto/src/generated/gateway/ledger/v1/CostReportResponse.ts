// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { ProviderDayCost as _gateway_ledger_v1_ProviderDayCost, ProviderDayCost__Output as _gateway_ledger_v1_ProviderDayCost__Output } from '../../../gateway/ledger/v1/ProviderDayCost.js';
import type { OrgMargin as _gateway_ledger_v1_OrgMargin, OrgMargin__Output as _gateway_ledger_v1_OrgMargin__Output } from '../../../gateway/ledger/v1/OrgMargin.js';
import type { ProviderClassCost as _gateway_ledger_v1_ProviderClassCost, ProviderClassCost__Output as _gateway_ledger_v1_ProviderClassCost__Output } from '../../../gateway/ledger/v1/ProviderClassCost.js';

export interface CostReportResponse {
  'providers'?: (_gateway_ledger_v1_ProviderDayCost)[];
  'orgs'?: (_gateway_ledger_v1_OrgMargin)[];
  'classes'?: (_gateway_ledger_v1_ProviderClassCost)[];
}

export interface CostReportResponse__Output {
  'providers': (_gateway_ledger_v1_ProviderDayCost__Output)[];
  'orgs': (_gateway_ledger_v1_OrgMargin__Output)[];
  'classes': (_gateway_ledger_v1_ProviderClassCost__Output)[];
}
