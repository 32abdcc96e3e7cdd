// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface Org {
  'id'?: (string);
  'name'?: (string);
  'enabled_models'?: (string)[];
  'in_trial'?: (boolean);
  'created_at_ms'?: (number | string | Long);
  'monthly_budget_minor'?: (number | string | Long);
  'output_limit'?: (string);
}

export interface Org__Output {
  'id': (string);
  'name': (string);
  'enabled_models': (string)[];
  'in_trial': (boolean);
  'created_at_ms': (number);
  'monthly_budget_minor': (number);
  'output_limit': (string);
}
