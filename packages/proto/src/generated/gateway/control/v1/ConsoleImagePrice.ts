// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleImagePrice {
  'size'?: (string);
  'quality'?: (string);
  'price_minor'?: (number | string | Long);
}

export interface ConsoleImagePrice__Output {
  'size': (string);
  'quality': (string);
  'price_minor': (number);
}
