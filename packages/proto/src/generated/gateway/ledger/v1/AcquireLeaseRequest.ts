// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface AcquireLeaseRequest {
  'org_id'?: (string);
  'lease_id'?: (string);
  'holder'?: (string);
  'amount_minor'?: (number | string | Long);
  'min_amount_minor'?: (number | string | Long);
  'ttl_ms'?: (number | string | Long);
  'monthly_budget_minor'?: (number | string | Long);
  'scope'?: (string);
  'budget_limit_minor'?: (number | string | Long);
  'budget_window'?: (string);
  'time_zone'?: (string);
  'alert_thresholds_pct'?: (number)[];
  'balance_alerts_minor'?: (number | string | Long)[];
  'keep_balance_alerts'?: (boolean);
  'dedicated'?: (boolean);
  'demand_minor'?: (number | string | Long);
}

export interface AcquireLeaseRequest__Output {
  'org_id': (string);
  'lease_id': (string);
  'holder': (string);
  'amount_minor': (number);
  'min_amount_minor': (number);
  'ttl_ms': (number);
  'monthly_budget_minor': (number);
  'scope': (string);
  'budget_limit_minor': (number);
  'budget_window': (string);
  'time_zone': (string);
  'alert_thresholds_pct': (number)[];
  'balance_alerts_minor': (number)[];
  'keep_balance_alerts': (boolean);
  'dedicated': (boolean);
  'demand_minor': (number);
}
