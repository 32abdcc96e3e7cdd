// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ReleaseLeaseRequest {
  'lease_id'?: (string);
  'consumed_minor'?: (number | string | Long);
  'org_id'?: (string);
  'holder'?: (string);
}

export interface ReleaseLeaseRequest__Output {
  'lease_id': (string);
  'consumed_minor': (number);
  'org_id': (string);
  'holder': (string);
}
