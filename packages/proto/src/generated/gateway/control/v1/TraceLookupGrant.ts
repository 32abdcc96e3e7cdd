// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface TraceLookupGrant {
  'grant'?: (string);
  'expires_at_ms'?: (number | string | Long);
}

export interface TraceLookupGrant__Output {
  'grant': (string);
  'expires_at_ms': (number);
}
