// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ExportUsageRequest {
  'org_id'?: (string);
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
}

export interface ExportUsageRequest__Output {
  'org_id': (string);
  'from_ms': (number);
  'to_ms': (number);
}
