// Original file: ../../proto/gateway/control/v1/control.proto

import type { Long } from '@grpc/proto-loader';

export interface ClaimVideoJobsRequest {
  'holder'?: (string);
  'job_id'?: (string);
  'stale_after_ms'?: (number | string | Long);
  'claim_ms'?: (number | string | Long);
  'limit'?: (number);
}

export interface ClaimVideoJobsRequest__Output {
  'holder': (string);
  'job_id': (string);
  'stale_after_ms': (number);
  'claim_ms': (number);
  'limit': (number);
}
