// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface GuardrailCount {
  'plugin'?: (string);
  'name'?: (string);
  'outcome'?: (string);
  'count'?: (number | string | Long);
}

export interface GuardrailCount__Output {
  'plugin': (string);
  'name': (string);
  'outcome': (string);
  'count': (number);
}
