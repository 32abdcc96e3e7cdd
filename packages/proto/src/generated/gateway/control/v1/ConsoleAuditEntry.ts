// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleAuditEntry {
  'id'?: (string);
  'at_ms'?: (number | string | Long);
  'org_id'?: (string);
  'actor_email'?: (string);
  'action'?: (string);
  'target'?: (string);
  'detail_json'?: (string);
}

export interface ConsoleAuditEntry__Output {
  'id': (string);
  'at_ms': (number);
  'org_id': (string);
  'actor_email': (string);
  'action': (string);
  'target': (string);
  'detail_json': (string);
}
