// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface Alert {
  'id'?: (string);
  'org_id'?: (string);
  'kind'?: (string);
  'scope'?: (string);
  'window_start_ms'?: (number | string | Long);
  'window_end_ms'?: (number | string | Long);
  'threshold_pct'?: (number);
  'limit_minor'?: (number | string | Long);
  'spent_minor'?: (number | string | Long);
  'threshold_minor'?: (number | string | Long);
  'balance_minor'?: (number | string | Long);
  'created_at_ms'?: (number | string | Long);
  'delivery_state'?: (string);
  'attempts'?: (number);
  'last_status'?: (number);
  'last_error'?: (string);
  'last_attempt_at_ms'?: (number | string | Long);
  'next_attempt_at_ms'?: (number | string | Long);
  'delivered_at_ms'?: (number | string | Long);
}

export interface Alert__Output {
  'id': (string);
  'org_id': (string);
  'kind': (string);
  'scope': (string);
  'window_start_ms': (number);
  'window_end_ms': (number);
  'threshold_pct': (number);
  'limit_minor': (number);
  'spent_minor': (number);
  'threshold_minor': (number);
  'balance_minor': (number);
  'created_at_ms': (number);
  'delivery_state': (string);
  'attempts': (number);
  'last_status': (number);
  'last_error': (string);
  'last_attempt_at_ms': (number);
  'next_attempt_at_ms': (number);
  'delivered_at_ms': (number);
}
