// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface CreditNoteRequest {
  'org_id'?: (string);
  'amount_minor'?: (number | string | Long);
  'reason'?: (string);
  'operator'?: (string);
  'idempotency_key'?: (string);
  'period'?: (string);
  'reference'?: (string);
}

export interface CreditNoteRequest__Output {
  'org_id': (string);
  'amount_minor': (number);
  'reason': (string);
  'operator': (string);
  'idempotency_key': (string);
  'period': (string);
  'reference': (string);
}
