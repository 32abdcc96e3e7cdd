// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleGrantTopUpRequest {
  'token'?: (string);
  'org_id'?: (string);
  'amount_minor'?: (number | string | Long);
  'idempotency_key'?: (string);
}

export interface ConsoleGrantTopUpRequest__Output {
  'token': (string);
  'org_id': (string);
  'amount_minor': (number);
  'idempotency_key': (string);
}
