// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface Credits {
  'org_id'?: (string);
  'balance_minor'?: (number | string | Long);
  'spent_minor'?: (number | string | Long);
  'held_minor'?: (number | string | Long);
  'topped_up_minor'?: (number | string | Long);
  'month_spent_minor'?: (number | string | Long);
  'promo_minor'?: (number | string | Long);
  'credit_limit_minor'?: (number | string | Long);
  'adjusted_minor'?: (number | string | Long);
}

export interface Credits__Output {
  'org_id': (string);
  'balance_minor': (number);
  'spent_minor': (number);
  'held_minor': (number);
  'topped_up_minor': (number);
  'month_spent_minor': (number);
  'promo_minor': (number);
  'credit_limit_minor': (number);
  'adjusted_minor': (number);
}
