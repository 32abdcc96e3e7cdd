// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface CostReportRequest {
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
  'by_token_class'?: (boolean);
}

export interface CostReportRequest__Output {
  'from_ms': (number);
  'to_ms': (number);
  'by_token_class': (boolean);
}
