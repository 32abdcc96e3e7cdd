// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Adjustment as _gateway_ledger_v1_Adjustment, Adjustment__Output as _gateway_ledger_v1_Adjustment__Output } from '../../../gateway/ledger/v1/Adjustment.js';

export interface ListAdjustmentsResponse {
  'adjustments'?: (_gateway_ledger_v1_Adjustment)[];
}

export interface ListAdjustmentsResponse__Output {
  'adjustments': (_gateway_ledger_v1_Adjustment__Output)[];
}
