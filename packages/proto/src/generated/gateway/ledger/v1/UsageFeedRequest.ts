// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface UsageFeedRequest {
  'after_seq'?: (number | string | Long);
  'max_entries'?: (number | string | Long);
  'follow'?: (boolean);
}

export interface UsageFeedRequest__Output {
  'after_seq': (number);
  'max_entries': (number);
  'follow': (boolean);
}
