// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface TopUpRequest {
  'org_id'?: (string);
  'amount_minor'?: (number | string | Long);
  'idempotency_key'?: (string);
  'grant'?: (string);
  'paid_amount_minor'?: (number | string | Long);
  'paid_currency'?: (string);
  'payment_reference'?: (string);
  'invoice_reference'?: (string);
}

export interface TopUpRequest__Output {
  'org_id': (string);
  'amount_minor': (number);
  'idempotency_key': (string);
  'grant': (string);
  'paid_amount_minor': (number);
  'paid_currency': (string);
  'payment_reference': (string);
  'invoice_reference': (string);
}
