// Original file: ../../proto/gateway/control/v1/control.proto

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
}
