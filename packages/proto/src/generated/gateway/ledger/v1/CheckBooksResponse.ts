// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface CheckBooksResponse {
  'violations'?: (string)[];
  'accounts'?: (number | string | Long);
  'usage_records'?: (number | string | Long);
  'checked_at_ms'?: (number | string | Long);
}

export interface CheckBooksResponse__Output {
  'violations': (string)[];
  'accounts': (number);
  'usage_records': (number);
  'checked_at_ms': (number);
}
