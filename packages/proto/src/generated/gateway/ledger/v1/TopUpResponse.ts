// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Credits as _gateway_ledger_v1_Credits, Credits__Output as _gateway_ledger_v1_Credits__Output } from '../../../gateway/ledger/v1/Credits.js';

export interface TopUpResponse {
  'top_up_id'?: (string);
  'duplicate'?: (boolean);
  'credits'?: (_gateway_ledger_v1_Credits | null);
}

export interface TopUpResponse__Output {
  'top_up_id': (string);
  'duplicate': (boolean);
  'credits': (_gateway_ledger_v1_Credits__Output | null);
}
