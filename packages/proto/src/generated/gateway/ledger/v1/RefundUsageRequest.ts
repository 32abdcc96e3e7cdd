// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface RefundUsageRequest {
  'org_id'?: (string);
  'request_id'?: (string);
  'amount_minor'?: (number | string | Long);
  'reason'?: (string);
  'operator'?: (string);
  'idempotency_key'?: (string);
}

export interface RefundUsageRequest__Output {
  'org_id': (string);
  'request_id': (string);
  'amount_minor': (number);
  'reason': (string);
  'operator': (string);
  'idempotency_key': (string);
}
