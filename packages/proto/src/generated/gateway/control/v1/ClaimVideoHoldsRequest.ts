// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ClaimVideoHoldsRequest {
  'holder'?: (string);
  'renew_every_ms'?: (number | string | Long);
  'limit'?: (number);
}

export interface ClaimVideoHoldsRequest__Output {
  'holder': (string);
  'renew_every_ms': (number);
  'limit': (number);
}
