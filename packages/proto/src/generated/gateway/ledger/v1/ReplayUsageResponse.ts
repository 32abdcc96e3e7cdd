// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ReplayUsageResponse {
  'events'?: (number | string | Long);
  'applied'?: (number | string | Long);
  'duplicates'?: (number | string | Long);
  'set_aside'?: (number | string | Long);
  'first_available_ms'?: (number | string | Long);
}

export interface ReplayUsageResponse__Output {
  'events': (number);
  'applied': (number);
  'duplicates': (number);
  'set_aside': (number);
  'first_available_ms': (number);
}
