// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface Budget {
  'limit_minor'?: (number | string | Long);
  'window'?: (string);
}

export interface Budget__Output {
  'limit_minor': (number);
  'window': (string);
}
