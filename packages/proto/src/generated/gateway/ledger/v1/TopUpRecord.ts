// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface TopUpRecord {
  'top_up_id'?: (string);
  'org_id'?: (string);
  'amount_minor'?: (number | string | Long);
  'made_by'?: (string);
  'created_at_ms'?: (number | string | Long);
  'paid_amount_minor'?: (number | string | Long);
  'paid_currency'?: (string);
  'payment_reference'?: (string);
  'invoice_reference'?: (string);
}

export interface TopUpRecord__Output {
  'top_up_id': (string);
  'org_id': (string);
  'amount_minor': (number);
  'made_by': (string);
  'created_at_ms': (number);
  'paid_amount_minor': (number);
  'paid_currency': (string);
  'payment_reference': (string);
  'invoice_reference': (string);
}
