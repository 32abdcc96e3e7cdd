// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface RepublishJournalRequest {
  'since_ms'?: (number | string | Long);
}

export interface RepublishJournalRequest__Output {
  'since_ms': (number);
}
