// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface GuardrailCountsRequest {
  'org_id'?: (string);
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
}

export interface GuardrailCountsRequest__Output {
  'org_id': (string);
  'from_ms': (number);
  'to_ms': (number);
}
