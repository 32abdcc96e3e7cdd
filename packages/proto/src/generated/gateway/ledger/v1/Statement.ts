// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { StatementLine as _gateway_ledger_v1_StatementLine, StatementLine__Output as _gateway_ledger_v1_StatementLine__Output } from '../../../gateway/ledger/v1/StatementLine.js';
import type { Adjustment as _gateway_ledger_v1_Adjustment, Adjustment__Output as _gateway_ledger_v1_Adjustment__Output } from '../../../gateway/ledger/v1/Adjustment.js';
import type { TopUpRecord as _gateway_ledger_v1_TopUpRecord, TopUpRecord__Output as _gateway_ledger_v1_TopUpRecord__Output } from '../../../gateway/ledger/v1/TopUpRecord.js';
import type { Long } from '@grpc/proto-loader';

export interface Statement {
  'org_id'?: (string);
  'external_customer_id'?: (string);
  'month'?: (string);
  'time_zone'?: (string);
  'from_ms'?: (number | string | Long);
  'to_ms'?: (number | string | Long);
  'currency'?: (string);
  'price_per_credit_micros'?: (number | string | Long);
  'opening_balance_minor'?: (number | string | Long);
  'closing_balance_minor'?: (number | string | Long);
  'lines'?: (_gateway_ledger_v1_StatementLine)[];
  'lines_minor'?: (number | string | Long);
  'rounding_minor'?: (number | string | Long);
  'usage_minor'?: (number | string | Long);
  'requests'?: (number | string | Long);
  'late_usage_minor'?: (number | string | Long);
  'adjustments'?: (_gateway_ledger_v1_Adjustment)[];
  'adjustments_minor'?: (number | string | Long);
  'top_ups'?: (_gateway_ledger_v1_TopUpRecord)[];
  'top_ups_minor'?: (number | string | Long);
  'opening_promo_minor'?: (number | string | Long);
  'closing_promo_minor'?: (number | string | Long);
  'credit_limit_minor'?: (number | string | Long);
}

export interface Statement__Output {
  'org_id': (string);
  'external_customer_id': (string);
  'month': (string);
  'time_zone': (string);
  'from_ms': (number);
  'to_ms': (number);
  'currency': (string);
  'price_per_credit_micros': (number);
  'opening_balance_minor': (number);
  'closing_balance_minor': (number);
  'lines': (_gateway_ledger_v1_StatementLine__Output)[];
  'lines_minor': (number);
  'rounding_minor': (number);
  'usage_minor': (number);
  'requests': (number);
  'late_usage_minor': (number);
  'adjustments': (_gateway_ledger_v1_Adjustment__Output)[];
  'adjustments_minor': (number);
  'top_ups': (_gateway_ledger_v1_TopUpRecord__Output)[];
  'top_ups_minor': (number);
  'opening_promo_minor': (number);
  'closing_promo_minor': (number);
  'credit_limit_minor': (number);
}
