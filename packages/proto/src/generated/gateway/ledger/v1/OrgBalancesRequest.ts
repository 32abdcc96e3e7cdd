// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface OrgBalancesRequest {
  'org_ids'?: (string)[];
  'from_ms'?: (number | string | Long);
}

export interface OrgBalancesRequest__Output {
  'org_ids': (string)[];
  'from_ms': (number);
}
