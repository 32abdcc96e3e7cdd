// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface VideoJob {
  'id'?: (string);
  'org_id'?: (string);
  'key_id'?: (string);
  'model'?: (string);
  'provider'?: (string);
  'upstream_model'?: (string);
  'upstream_job_id'?: (string);
  'upstream_json'?: (string);
  'request_json'?: (string);
  'status'?: (string);
  'progress'?: (number);
  'error_code'?: (string);
  'error_message'?: (string);
  'outputs_json'?: (string);
  'duration_s'?: (number);
  'price_minor_per_second'?: (number | string | Long);
  'max_cost_minor'?: (number | string | Long);
  'lease_id'?: (string);
  'cost_minor'?: (number | string | Long);
  'settled'?: (boolean);
  'trace_id'?: (string);
  'created_at_ms'?: (number | string | Long);
  'updated_at_ms'?: (number | string | Long);
  'completed_at_ms'?: (number | string | Long);
  'refreshed_at_ms'?: (number | string | Long);
  'resolution'?: (string);
  'audio'?: (boolean);
  'guardrails_json'?: (string);
  'idempotency_key'?: (string);
  'request_hash'?: (string);
  'attempts_json'?: (string);
  'catalog_version'?: (number | string | Long);
  'claim_token'?: (string);
  'budgets_json'?: (string);
  'attribution_json'?: (string);
}

export interface VideoJob__Output {
  'id': (string);
  'org_id': (string);
  'key_id': (string);
  'model': (string);
  'provider': (string);
  'upstream_model': (string);
  'upstream_job_id': (string);
  'upstream_json': (string);
  'request_json': (string);
  'status': (string);
  'progress': (number);
  'error_code': (string);
  'error_message': (string);
  'outputs_json': (string);
  'duration_s': (number);
  'price_minor_per_second': (number);
  'max_cost_minor': (number);
  'lease_id': (string);
  'cost_minor': (number);
  'settled': (boolean);
  'trace_id': (string);
  'created_at_ms': (number);
  'updated_at_ms': (number);
  'completed_at_ms': (number);
  'refreshed_at_ms': (number);
  'resolution': (string);
  'audio': (boolean);
  'guardrails_json': (string);
  'idempotency_key': (string);
  'request_hash': (string);
  'attempts_json': (string);
  'catalog_version': (number);
  'claim_token': (string);
  'budgets_json': (string);
  'attribution_json': (string);
}
