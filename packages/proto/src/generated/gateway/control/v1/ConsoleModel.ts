// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ConsoleModel {
  'id'?: (string);
  'routes'?: (string)[];
  'context_window'?: (number | string | Long);
  'max_output_tokens'?: (number | string | Long);
  'input_price_minor_per_mtok'?: (number | string | Long);
  'output_price_minor_per_mtok'?: (number | string | Long);
  'cached_input_price_minor_per_mtok'?: (number | string | Long);
  'reasoning_price_minor_per_mtok'?: (number | string | Long);
  'web_search_price_minor'?: (number | string | Long);
}

export interface ConsoleModel__Output {
  'id': (string);
  'routes': (string)[];
  'context_window': (number);
  'max_output_tokens': (number);
  'input_price_minor_per_mtok': (number);
  'output_price_minor_per_mtok': (number);
  'cached_input_price_minor_per_mtok': (number);
  'reasoning_price_minor_per_mtok': (number);
  'web_search_price_minor': (number);
}
