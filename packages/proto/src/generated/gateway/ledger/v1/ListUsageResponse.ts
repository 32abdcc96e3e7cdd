// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { UsageRecord as _gateway_ledger_v1_UsageRecord, UsageRecord__Output as _gateway_ledger_v1_UsageRecord__Output } from '../../../gateway/ledger/v1/UsageRecord.js';

export interface ListUsageResponse {
  'records'?: (_gateway_ledger_v1_UsageRecord)[];
  'next_cursor'?: (string);
}

export interface ListUsageResponse__Output {
  'records': (_gateway_ledger_v1_UsageRecord__Output)[];
  'next_cursor': (string);
}
