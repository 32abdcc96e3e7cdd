// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { FeedEntry as _gateway_ledger_v1_FeedEntry, FeedEntry__Output as _gateway_ledger_v1_FeedEntry__Output } from '../../../gateway/ledger/v1/FeedEntry.js';
import type { Long } from '@grpc/proto-loader';

export interface FeedPage {
  'entries'?: (_gateway_ledger_v1_FeedEntry)[];
  'resume_after_seq'?: (number | string | Long);
  'visible_through_seq'?: (number | string | Long);
}

export interface FeedPage__Output {
  'entries': (_gateway_ledger_v1_FeedEntry__Output)[];
  'resume_after_seq': (number);
  'visible_through_seq': (number);
}
