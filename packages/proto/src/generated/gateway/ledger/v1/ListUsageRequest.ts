// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ListUsageRequest {
  'org_id'?: (string);
  'key_id'?: (string);
  'model'?: (string);
  'route'?: (string);
  'status'?: (number);
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
  'limit'?: (number);
  'cursor'?: (string);
}

export interface ListUsageRequest__Output {
  'org_id': (string);
  'key_id': (string);
  'model': (string);
  'route': (string);
  'status': (number);
  'from_ms': (number);
  'to_ms': (number);
  'limit': (number);
  'cursor': (string);
}
