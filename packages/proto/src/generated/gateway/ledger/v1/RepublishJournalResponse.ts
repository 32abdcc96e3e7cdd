// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface RepublishJournalResponse {
  'journal_transactions'?: (number | string | Long);
  'top_ups'?: (number | string | Long);
}

export interface RepublishJournalResponse__Output {
  'journal_transactions': (number);
  'top_ups': (number);
}
