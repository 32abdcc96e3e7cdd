// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface SetCreditLimitRequest {
  'org_id'?: (string);
  'credit_limit_minor'?: (number | string | Long);
  'reason'?: (string);
  'operator'?: (string);
  'idempotency_key'?: (string);
}

export interface SetCreditLimitRequest__Output {
  'org_id': (string);
  'credit_limit_minor': (number);
  'reason': (string);
  'operator': (string);
  'idempotency_key': (string);
}
