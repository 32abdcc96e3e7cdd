// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface SpendPoint {
  'bucket_start_ms'?: (number | string | Long);
  'group'?: (string);
  'requests'?: (number | string | Long);
  'input_tokens'?: (number | string | Long);
  'output_tokens'?: (number | string | Long);
  'cached_input_tokens'?: (number | string | Long);
  'cache_creation_input_tokens'?: (number | string | Long);
  'reasoning_tokens'?: (number | string | Long);
  'cost_minor'?: (number | string | Long);
  'absorbed_minor'?: (number | string | Long);
  'errors'?: (number | string | Long);
  'latency_counts'?: (number | string | Long)[];
}

export interface SpendPoint__Output {
  'bucket_start_ms': (number);
  'group': (string);
  'requests': (number);
  'input_tokens': (number);
  'output_tokens': (number);
  'cached_input_tokens': (number);
  'cache_creation_input_tokens': (number);
  'reasoning_tokens': (number);
  'cost_minor': (number);
  'absorbed_minor': (number);
  'errors': (number);
  'latency_counts': (number)[];
}
