// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ProviderHealthRequest {
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
}

export interface ProviderHealthRequest__Output {
  'from_ms': (number);
  'to_ms': (number);
}
