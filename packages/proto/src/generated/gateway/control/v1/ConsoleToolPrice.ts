// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleToolPrice {
  'server'?: (string);
  'tool'?: (string);
  'price_minor'?: (number | string | Long);
}

export interface ConsoleToolPrice__Output {
  'server': (string);
  'tool': (string);
  'price_minor': (number);
}
