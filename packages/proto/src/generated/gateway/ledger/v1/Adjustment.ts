// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface Adjustment {
  'adjustment_id'?: (string);
  'org_id'?: (string);
  'kind'?: (string);
  'amount_minor'?: (number | string | Long);
  'request_id'?: (string);
  'period'?: (string);
  'reason'?: (string);
  'reference'?: (string);
  'made_by'?: (string);
  'created_at_ms'?: (number | string | Long);
  'expires_at_ms'?: (number | string | Long);
  'expired_minor'?: (number | string | Long);
  'grant_id'?: (string);
  'seq'?: (number | string | Long);
}

export interface Adjustment__Output {
  'adjustment_id': (string);
  'org_id': (string);
  'kind': (string);
  'amount_minor': (number);
  'request_id': (string);
  'period': (string);
  'reason': (string);
  'reference': (string);
  'made_by': (string);
  'created_at_ms': (number);
  'expires_at_ms': (number);
  'expired_minor': (number);
  'grant_id': (string);
  'seq': (number);
}
