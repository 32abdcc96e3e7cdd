// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { SpendPoint as _gateway_ledger_v1_SpendPoint, SpendPoint__Output as _gateway_ledger_v1_SpendPoint__Output } from '../../../gateway/ledger/v1/SpendPoint.js';
import type { Long } from '@grpc/proto-loader';

export interface SpendSeriesResponse {
  'points'?: (_gateway_ledger_v1_SpendPoint)[];
  'latency_bounds_ms'?: (number | string | Long)[];
}

export interface SpendSeriesResponse__Output {
  'points': (_gateway_ledger_v1_SpendPoint__Output)[];
  'latency_bounds_ms': (number)[];
}
