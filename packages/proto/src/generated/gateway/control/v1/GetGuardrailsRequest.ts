// Original file: ../../proto/gateway/control/v1/control.proto


export interface GetGuardrailsRequest {
  'org'?: (string);
}

export interface GetGuardrailsRequest__Output {
  'org': (string);
}
