// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface TopUpGrant {
  'grant'?: (string);
  'expires_at_ms'?: (number | string | Long);
}

export interface TopUpGrant__Output {
  'grant': (string);
  'expires_at_ms': (number);
}
