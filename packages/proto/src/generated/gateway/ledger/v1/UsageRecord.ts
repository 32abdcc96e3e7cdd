// Original file: ../../proto/gateway/ledger/v1/ledger.proto

import type { Long } from '@grpc/proto-loader';

export interface UsageRecord {
  'request_id'?: (string);
  'org_id'?: (string);
  'key_id'?: (string);
  'model'?: (string);
  'route'?: (string);
  'provider'?: (string);
  'upstream_model'?: (string);
  'input_tokens'?: (number | string | Long);
  'output_tokens'?: (number | string | Long);
  'cached_input_tokens'?: (number | string | Long);
  'estimated'?: (boolean);
  'cost_minor'?: (number | string | Long);
  'created_at_ms'?: (number | string | Long);
  'stream'?: (boolean);
  'input_price_minor_per_mtok'?: (number | string | Long);
  'output_price_minor_per_mtok'?: (number | string | Long);
  'line_items_json'?: (string);
  'guardrails_json'?: (string);
  'cache_creation_input_tokens'?: (number | string | Long);
  'reasoning_tokens'?: (number | string | Long);
  'status'?: (number);
  'duration_ms'?: (number | string | Long);
  'journal_txn_id'?: (string);
  'recorded_at_ms'?: (number | string | Long);
  'attempts_json'?: (string);
  'provider_cost_minor'?: (number | string | Long);
  'basis'?: (string);
  'catalog_version'?: (number | string | Long);
  'route_pin'?: (string);
  'end_user'?: (string);
  'project_id'?: (string);
  'tags'?: (string)[];
  'feed_seq'?: (number | string | Long);
  'service_tier'?: (string);
  'refunded_minor'?: (number | string | Long);
  'external_customer_id'?: (string);
  'error_code'?: (string);
  'error_message'?: (string);
}

export interface UsageRecord__Output {
  'request_id': (string);
  'org_id': (string);
  'key_id': (string);
  'model': (string);
  'route': (string);
  'provider': (string);
  'upstream_model': (string);
  'input_tokens': (number);
  'output_tokens': (number);
  'cached_input_tokens': (number);
  'estimated': (boolean);
  'cost_minor': (number);
  'created_at_ms': (number);
  'stream': (boolean);
  'input_price_minor_per_mtok': (number);
  'output_price_minor_per_mtok': (number);
  'line_items_json': (string);
  'guardrails_json': (string);
  'cache_creation_input_tokens': (number);
  'reasoning_tokens': (number);
  'status': (number);
  'duration_ms': (number);
  'journal_txn_id': (string);
  'recorded_at_ms': (number);
  'attempts_json': (string);
  'provider_cost_minor': (number);
  'basis': (string);
  'catalog_version': (number);
  'route_pin': (string);
  'end_user': (string);
  'project_id': (string);
  'tags': (string)[];
  'feed_seq': (number);
  'service_tier': (string);
  'refunded_minor': (number);
  'external_customer_id': (string);
  'error_code': (string);
  'error_message': (string);
}
