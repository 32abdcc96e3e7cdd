// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface OrgBilling {
  'org_id'?: (string);
  'external_customer_id'?: (string);
  'currency'?: (string);
  'price_per_credit_micros'?: (number | string | Long);
  'time_zone'?: (string);
  'updated_by'?: (string);
  'updated_at_ms'?: (number | string | Long);
  'operator'?: (string);
}

export interface OrgBilling__Output {
  'org_id': (string);
  'external_customer_id': (string);
  'currency': (string);
  'price_per_credit_micros': (number);
  'time_zone': (string);
  'updated_by': (string);
  'updated_at_ms': (number);
  'operator': (string);
}
