// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface CreateKeyRequest {
  'org'?: (string);
  'routes'?: (string)[];
  'models'?: (string)[];
  'name'?: (string);
  'rpm_limit'?: (number | string | Long);
  'tpm_limit'?: (number | string | Long);
  'mcp_tools'?: (string)[];
}

export interface CreateKeyRequest__Output {
  'org': (string);
  'routes': (string)[];
  'models': (string)[];
  'name': (string);
  'rpm_limit': (number);
  'tpm_limit': (number);
  'mcp_tools': (string)[];
}
