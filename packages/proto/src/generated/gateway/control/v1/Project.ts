// Original file: ../../proto/gateway/control/v1/control.proto

import type { Budget as _gateway_control_v1_Budget, Budget__Output as _gateway_control_v1_Budget__Output } from '../../../gateway/control/v1/Budget.js';
import type { Long } from '@grpc/proto-loader';

export interface Project {
  'id'?: (string);
  'org_id'?: (string);
  'name'?: (string);
  'budget'?: (_gateway_control_v1_Budget | null);
  'created_at_ms'?: (number | string | Long);
  'keys'?: (number);
}

export interface Project__Output {
  'id': (string);
  'org_id': (string);
  'name': (string);
  'budget': (_gateway_control_v1_Budget__Output | null);
  'created_at_ms': (number);
  'keys': (number);
}
