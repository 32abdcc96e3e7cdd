// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ProviderDayCost {
  'day'?: (string);
  'provider'?: (string);
  'attempts'?: (number | string | Long);
  'unserved'?: (number | string | Long);
  'provider_cost_minor'?: (number | string | Long);
  'absorbed_minor'?: (number | string | Long);
}

export interface ProviderDayCost__Output {
  'day': (string);
  'provider': (string);
  'attempts': (number);
  'unserved': (number);
  'provider_cost_minor': (number);
  'absorbed_minor': (number);
}
