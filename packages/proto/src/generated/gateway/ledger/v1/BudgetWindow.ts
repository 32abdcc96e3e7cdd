// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface BudgetWindow {
  'scope'?: (string);
  'window_start_ms'?: (number | string | Long);
  'window_end_ms'?: (number | string | Long);
  'limit_minor'?: (number | string | Long);
  'spent_minor'?: (number | string | Long);
  'held_minor'?: (number | string | Long);
}

export interface BudgetWindow__Output {
  'scope': (string);
  'window_start_ms': (number);
  'window_end_ms': (number);
  'limit_minor': (number);
  'spent_minor': (number);
  'held_minor': (number);
}
