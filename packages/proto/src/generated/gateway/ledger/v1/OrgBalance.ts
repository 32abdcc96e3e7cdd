// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface OrgBalance {
  'org_id'?: (string);
  'balance_minor'?: (number | string | Long);
  'held_minor'?: (number | string | Long);
  'month_spent_minor'?: (number | string | Long);
  'window_spent_minor'?: (number | string | Long);
  'window_requests'?: (number | string | Long);
}

export interface OrgBalance__Output {
  'org_id': (string);
  'balance_minor': (number);
  'held_minor': (number);
  'month_spent_minor': (number);
  'window_spent_minor': (number);
  'window_requests': (number);
}
