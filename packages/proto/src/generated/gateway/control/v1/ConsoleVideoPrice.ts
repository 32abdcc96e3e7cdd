// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleVideoPrice {
  'resolution'?: (string);
  'price_minor_per_second'?: (number | string | Long);
  'audio_price_minor_per_second'?: (number | string | Long);
}

export interface ConsoleVideoPrice__Output {
  'resolution': (string);
  'price_minor_per_second': (number);
  'audio_price_minor_per_second': (number);
}
