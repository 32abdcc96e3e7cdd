// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { OrgBalance as _gateway_ledger_v1_OrgBalance, OrgBalance__Output as _gateway_ledger_v1_OrgBalance__Output } from '../../../gateway/ledger/v1/OrgBalance.js';

export interface OrgBalancesResponse {
  'orgs'?: (_gateway_ledger_v1_OrgBalance)[];
}

export interface OrgBalancesResponse__Output {
  'orgs': (_gateway_ledger_v1_OrgBalance__Output)[];
}
