// Original file: ../../proto/gateway/control/v1/control.proto

import type { ConsoleImagePrice as _gateway_control_v1_ConsoleImagePrice, ConsoleImagePrice__Output as _gateway_control_v1_ConsoleImagePrice__Output } from '../../../gateway/control/v1/ConsoleImagePrice.js';
import type { ConsoleVideoPrice as _gateway_control_v1_ConsoleVideoPrice, ConsoleVideoPrice__Output as _gateway_control_v1_ConsoleVideoPrice__Output } from '../../../gateway/control/v1/ConsoleVideoPrice.js';
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
  'image_prices'?: (_gateway_control_v1_ConsoleImagePrice)[];
  'video_prices'?: (_gateway_control_v1_ConsoleVideoPrice)[];
  'cache_write_price_minor_per_mtok'?: (number | string | Long);
  'long_context_threshold_tokens'?: (number | string | Long);
  'long_context_input_price_minor_per_mtok'?: (number | string | Long);
  'long_context_output_price_minor_per_mtok'?: (number | string | Long);
  'audio_input_price_minor_per_mtok'?: (number | string | Long);
  'audio_output_price_minor_per_mtok'?: (number | string | Long);
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
  'image_prices': (_gateway_control_v1_ConsoleImagePrice__Output)[];
  'video_prices': (_gateway_control_v1_ConsoleVideoPrice__Output)[];
  'cache_write_price_minor_per_mtok': (number);
  'long_context_threshold_tokens': (number);
  'long_context_input_price_minor_per_mtok': (number);
  'long_context_output_price_minor_per_mtok': (number);
  'audio_input_price_minor_per_mtok': (number);
  'audio_output_price_minor_per_mtok': (number);
}
