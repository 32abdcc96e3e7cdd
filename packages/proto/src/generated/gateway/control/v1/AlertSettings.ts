// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface AlertSettings {
  'org_id'?: (string);
  'budget_pcts'?: (number)[];
  'balance_minor'?: (number | string | Long)[];
  'webhook_url'?: (string);
  'webhook_secret'?: (string);
  'webhook_secret_prefix'?: (string);
  'secret_created_at_ms'?: (number | string | Long);
  'updated_at_ms'?: (number | string | Long);
  'previous_secret_until_ms'?: (number | string | Long);
}

export interface AlertSettings__Output {
  'org_id': (string);
  'budget_pcts': (number)[];
  'balance_minor': (number)[];
  'webhook_url': (string);
  'webhook_secret': (string);
  'webhook_secret_prefix': (string);
  'secret_created_at_ms': (number);
  'updated_at_ms': (number);
  'previous_secret_until_ms': (number);
}
