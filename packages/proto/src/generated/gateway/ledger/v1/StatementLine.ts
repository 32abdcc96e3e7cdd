// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface StatementLine {
  'model'?: (string);
  'item'?: (string);
  'per'?: (string);
  'unit_price_minor'?: (number | string | Long);
  'quantity'?: (number | string | Long);
  'amount_minor'?: (number | string | Long);
  'amount_exact_minor'?: (string);
}

export interface StatementLine__Output {
  'model': (string);
  'item': (string);
  'per': (string);
  'unit_price_minor': (number);
  'quantity': (number);
  'amount_minor': (number);
  'amount_exact_minor': (string);
}
