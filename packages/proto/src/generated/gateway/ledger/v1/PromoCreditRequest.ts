// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface PromoCreditRequest {
  'org_id'?: (string);
  'amount_minor'?: (number | string | Long);
  'expires_at_ms'?: (number | string | Long);
  'reason'?: (string);
  'operator'?: (string);
  'idempotency_key'?: (string);
}

export interface PromoCreditRequest__Output {
  'org_id': (string);
  'amount_minor': (number);
  'expires_at_ms': (number);
  'reason': (string);
  'operator': (string);
  'idempotency_key': (string);
}
