// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface Guardrails {
  'org_id'?: (string);
  'version'?: (number | string | Long);
  'rules_json'?: (string);
  'document'?: (string);
  'rules'?: (number);
}

export interface Guardrails__Output {
  'org_id': (string);
  'version': (number);
  'rules_json': (string);
  'document': (string);
  'rules': (number);
}
