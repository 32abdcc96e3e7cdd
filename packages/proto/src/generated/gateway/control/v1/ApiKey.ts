// Original file: ../../proto/gateway/control/v1/control.proto

import type { Budget as _gateway_control_v1_Budget, Budget__Output as _gateway_control_v1_Budget__Output } from '../../../gateway/control/v1/Budget.js';
import type { Long } from '@grpc/proto-loader';

export interface ApiKey {
  'id'?: (string);
  'org_id'?: (string);
  'name'?: (string);
  'prefix'?: (string);
  'routes'?: (string)[];
  'models'?: (string)[];
  'revoked'?: (boolean);
  'created_at_ms'?: (number | string | Long);
  'revoked_at_ms'?: (number | string | Long);
  'rpm_limit'?: (number | string | Long);
  'tpm_limit'?: (number | string | Long);
  'mcp_tools'?: (string)[];
  'budget'?: (_gateway_control_v1_Budget | null);
  'project_id'?: (string);
  'tags'?: (string)[];
}

export interface ApiKey__Output {
  'id': (string);
  'org_id': (string);
  'name': (string);
  'prefix': (string);
  'routes': (string)[];
  'models': (string)[];
  'revoked': (boolean);
  'created_at_ms': (number);
  'revoked_at_ms': (number);
  'rpm_limit': (number);
  'tpm_limit': (number);
  'mcp_tools': (string)[];
  'budget': (_gateway_control_v1_Budget__Output | null);
  'project_id': (string);
  'tags': (string)[];
}
