// Original file: ../../proto/gateway/control/v1/control.proto


export interface SetOrgOutputLimitRequest {
  'org'?: (string);
  'output_limit'?: (string);
}

export interface SetOrgOutputLimitRequest__Output {
  'org': (string);
  'output_limit': (string);
}
