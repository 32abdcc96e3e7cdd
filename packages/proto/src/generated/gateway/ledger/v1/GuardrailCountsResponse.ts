// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { GuardrailCount as _gateway_ledger_v1_GuardrailCount, GuardrailCount__Output as _gateway_ledger_v1_GuardrailCount__Output } from '../../../gateway/ledger/v1/GuardrailCount.js';

export interface GuardrailCountsResponse {
  'counts'?: (_gateway_ledger_v1_GuardrailCount)[];
}

export interface GuardrailCountsResponse__Output {
  'counts': (_gateway_ledger_v1_GuardrailCount__Output)[];
}
