// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface UpdateVideoJobRequest {
  'job_id'?: (string);
  'holder'?: (string);
  'status'?: (string);
  'progress'?: (number);
  'error_code'?: (string);
  'error_message'?: (string);
  'outputs_json'?: (string);
  'cost_minor'?: (number | string | Long);
  'settled'?: (boolean);
  'upstream_json'?: (string);
  'duration_s'?: (number);
  'release_claim'?: (boolean);
  'claim_token'?: (string);
  'lease_id'?: (string);
  'budgets_json'?: (string);
}

export interface UpdateVideoJobRequest__Output {
  'job_id': (string);
  'holder': (string);
  'status': (string);
  'progress': (number);
  'error_code': (string);
  'error_message': (string);
  'outputs_json': (string);
  'cost_minor': (number);
  'settled': (boolean);
  'upstream_json': (string);
  'duration_s': (number);
  'release_claim': (boolean);
  'claim_token': (string);
  'lease_id': (string);
  'budgets_json': (string);
}
