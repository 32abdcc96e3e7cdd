// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface GetUsageRequest {
  'request_id'?: (string);
  'org_id'?: (string);
  'wait_ms'?: (number | string | Long);
}

export interface GetUsageRequest__Output {
  'request_id': (string);
  'org_id': (string);
  'wait_ms': (number);
}
