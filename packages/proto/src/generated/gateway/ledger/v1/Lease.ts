// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface Lease {
  'lease_id'?: (string);
  'org_id'?: (string);
  'granted_minor'?: (number | string | Long);
  'remaining_minor'?: (number | string | Long);
  'expires_at_ms'?: (number | string | Long);
  'status'?: (string);
  'holder'?: (string);
  'applied_minor'?: (number | string | Long);
  'created_at_ms'?: (number | string | Long);
  'available_after_minor'?: (number | string | Long);
  'scope'?: (string);
  'window_start_ms'?: (number | string | Long);
}

export interface Lease__Output {
  'lease_id': (string);
  'org_id': (string);
  'granted_minor': (number);
  'remaining_minor': (number);
  'expires_at_ms': (number);
  'status': (string);
  'holder': (string);
  'applied_minor': (number);
  'created_at_ms': (number);
  'available_after_minor': (number);
  'scope': (string);
  'window_start_ms': (number);
}
