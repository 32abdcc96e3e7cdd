// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ApplyCatalogResponse {
  'version'?: (number | string | Long);
  'providers'?: (number);
  'models'?: (number);
  'mcp_servers'?: (number);
}

export interface ApplyCatalogResponse__Output {
  'version': (number);
  'providers': (number);
  'models': (number);
  'mcp_servers': (number);
}
