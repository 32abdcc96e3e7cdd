// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface AlertAmounts {
  'values'?: (number | string | Long)[];
}

export interface AlertAmounts__Output {
  'values': (number)[];
}
