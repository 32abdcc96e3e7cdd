// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface McpToolPin {
  'server'?: (string);
  'tool'?: (string);
  'digest'?: (string);
  'definition_json'?: (string);
  'approved_at_ms'?: (number | string | Long);
  'approved_by'?: (string);
  'pending_digest'?: (string);
  'pending_definition_json'?: (string);
  'pending_since_ms'?: (number | string | Long);
}

export interface McpToolPin__Output {
  'server': (string);
  'tool': (string);
  'digest': (string);
  'definition_json': (string);
  'approved_at_ms': (number);
  'approved_by': (string);
  'pending_digest': (string);
  'pending_definition_json': (string);
  'pending_since_ms': (number);
}
