// Original file: ../../proto/gateway/control/v1/control.proto


export interface GetVideoJobRequest {
  'org_id'?: (string);
  'job_id'?: (string);
  'idempotency_key'?: (string);
}

export interface GetVideoJobRequest__Output {
  'org_id': (string);
  'job_id': (string);
  'idempotency_key': (string);
}
