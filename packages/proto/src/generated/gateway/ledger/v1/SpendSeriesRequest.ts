// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface SpendSeriesRequest {
  'org_id'?: (string);
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
  'bucket'?: (string);
  'group_by'?: (string);
  'key_id'?: (string);
  'without_latency'?: (boolean);
}

export interface SpendSeriesRequest__Output {
  'org_id': (string);
  'from_ms': (number);
  'to_ms': (number);
  'bucket': (string);
  'group_by': (string);
  'key_id': (string);
  'without_latency': (boolean);
}
