// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface ProviderClassCost {
  'day'?: (string);
  'provider'?: (string);
  'upstream_model'?: (string);
  'token_class'?: (string);
  'service_tier'?: (string);
  'tokens'?: (number | string | Long);
  'unit_price_minor'?: (number | string | Long);
  'provider_cost_exact_minor'?: (string);
  'attempts'?: (number | string | Long);
}

export interface ProviderClassCost__Output {
  'day': (string);
  'provider': (string);
  'upstream_model': (string);
  'token_class': (string);
  'service_tier': (string);
  'tokens': (number);
  'unit_price_minor': (number);
  'provider_cost_exact_minor': (string);
  'attempts': (number);
}
