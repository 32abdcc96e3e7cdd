// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface McpTool {
  'name'?: (string);
  'price_minor'?: (number | string | Long);
  'definition_json'?: (string);
  'digest'?: (string);
  'awaiting_approval'?: (boolean);
}

export interface McpTool__Output {
  'name': (string);
  'price_minor': (number);
  'definition_json': (string);
  'digest': (string);
  'awaiting_approval': (boolean);
}
