// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ReplayUsageRequest {
  'since_ms'?: (number | string | Long);
}

export interface ReplayUsageRequest__Output {
  'since_ms': (number);
}
