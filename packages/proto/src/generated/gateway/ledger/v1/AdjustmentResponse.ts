// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Adjustment as _gateway_ledger_v1_Adjustment, Adjustment__Output as _gateway_ledger_v1_Adjustment__Output } from '../../../gateway/ledger/v1/Adjustment.js';
import type { Credits as _gateway_ledger_v1_Credits, Credits__Output as _gateway_ledger_v1_Credits__Output } from '../../../gateway/ledger/v1/Credits.js';

export interface AdjustmentResponse {
  'adjustment'?: (_gateway_ledger_v1_Adjustment | null);
  'duplicate'?: (boolean);
  'credits'?: (_gateway_ledger_v1_Credits | null);
}

export interface AdjustmentResponse__Output {
  'adjustment': (_gateway_ledger_v1_Adjustment__Output | null);
  'duplicate': (boolean);
  'credits': (_gateway_ledger_v1_Credits__Output | null);
}
