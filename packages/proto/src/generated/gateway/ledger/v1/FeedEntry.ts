// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { UsageRecord as _gateway_ledger_v1_UsageRecord, UsageRecord__Output as _gateway_ledger_v1_UsageRecord__Output } from '../../../gateway/ledger/v1/UsageRecord.js';
import type { Adjustment as _gateway_ledger_v1_Adjustment, Adjustment__Output as _gateway_ledger_v1_Adjustment__Output } from '../../../gateway/ledger/v1/Adjustment.js';
import type { TopUpRecord as _gateway_ledger_v1_TopUpRecord, TopUpRecord__Output as _gateway_ledger_v1_TopUpRecord__Output } from '../../../gateway/ledger/v1/TopUpRecord.js';
import type { Long } from '@grpc/proto-loader';

export interface FeedEntry {
  'seq'?: (number | string | Long);
  'kind'?: (string);
  'org_id'?: (string);
  'external_customer_id'?: (string);
  'month'?: (string);
  'amount_minor'?: (number | string | Long);
  'recorded_at_ms'?: (number | string | Long);
  'usage'?: (_gateway_ledger_v1_UsageRecord | null);
  'adjustment'?: (_gateway_ledger_v1_Adjustment | null);
  'top_up'?: (_gateway_ledger_v1_TopUpRecord | null);
}

export interface FeedEntry__Output {
  'seq': (number);
  'kind': (string);
  'org_id': (string);
  'external_customer_id': (string);
  'month': (string);
  'amount_minor': (number);
  'recorded_at_ms': (number);
  'usage': (_gateway_ledger_v1_UsageRecord__Output | null);
  'adjustment': (_gateway_ledger_v1_Adjustment__Output | null);
  'top_up': (_gateway_ledger_v1_TopUpRecord__Output | null);
}
