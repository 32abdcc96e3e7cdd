// Original file: ../../proto/gateway/control/v1/control.proto

import type { Budget as _gateway_control_v1_Budget, Budget__Output as _gateway_control_v1_Budget__Output } from '../../../gateway/control/v1/Budget.js';
import type { Long } from '@grpc/proto-loader';

export interface Org {
  'id'?: (string);
  'name'?: (string);
  'enabled_models'?: (string)[];
  'in_trial'?: (boolean);
  'created_at_ms'?: (number | string | Long);
  'monthly_budget_minor'?: (number | string | Long);
  'output_limit'?: (string);
  'time_zone'?: (string);
  'budget'?: (_gateway_control_v1_Budget | null);
  'end_user_source'?: (string);
  'end_user_budget'?: (_gateway_control_v1_Budget | null);
  'end_user_overrides'?: (number);
}

export interface Org__Output {
  'id': (string);
  'name': (string);
  'enabled_models': (string)[];
  'in_trial': (boolean);
  'created_at_ms': (number);
  'monthly_budget_minor': (number);
  'output_limit': (string);
  'time_zone': (string);
  'budget': (_gateway_control_v1_Budget__Output | null);
  'end_user_source': (string);
  'end_user_budget': (_gateway_control_v1_Budget__Output | null);
  'end_user_overrides': (number);
}
