// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface Deployment {
  'provider'?: (string);
  'upstream_model'?: (string);
  'priority'?: (number);
  'weight'?: (number);
  'cost_input_price_minor_per_mtok'?: (number | string | Long);
  'cost_output_price_minor_per_mtok'?: (number | string | Long);
  'cost_cached_input_price_minor_per_mtok'?: (number | string | Long);
  'cost_cache_write_price_minor_per_mtok'?: (number | string | Long);
  'cost_reasoning_price_minor_per_mtok'?: (number | string | Long);
  '_cost_input_price_minor_per_mtok'?: "cost_input_price_minor_per_mtok";
  '_cost_output_price_minor_per_mtok'?: "cost_output_price_minor_per_mtok";
  '_cost_cached_input_price_minor_per_mtok'?: "cost_cached_input_price_minor_per_mtok";
  '_cost_cache_write_price_minor_per_mtok'?: "cost_cache_write_price_minor_per_mtok";
  '_cost_reasoning_price_minor_per_mtok'?: "cost_reasoning_price_minor_per_mtok";
}

export interface Deployment__Output {
  'provider': (string);
  'upstream_model': (string);
  'priority': (number);
  'weight': (number);
  'cost_input_price_minor_per_mtok'?: (number);
  'cost_output_price_minor_per_mtok'?: (number);
  'cost_cached_input_price_minor_per_mtok'?: (number);
  'cost_cache_write_price_minor_per_mtok'?: (number);
  'cost_reasoning_price_minor_per_mtok'?: (number);
  '_cost_input_price_minor_per_mtok'?: "cost_input_price_minor_per_mtok";
  '_cost_output_price_minor_per_mtok'?: "cost_output_price_minor_per_mtok";
  '_cost_cached_input_price_minor_per_mtok'?: "cost_cached_input_price_minor_per_mtok";
  '_cost_cache_write_price_minor_per_mtok'?: "cost_cache_write_price_minor_per_mtok";
  '_cost_reasoning_price_minor_per_mtok'?: "cost_reasoning_price_minor_per_mtok";
}
