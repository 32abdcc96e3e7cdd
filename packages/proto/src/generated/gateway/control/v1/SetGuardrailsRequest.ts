// Original file: ../../proto/gateway/control/v1/control.proto


export interface SetGuardrailsRequest {
  'org'?: (string);
  'document'?: (string);
}

export interface SetGuardrailsRequest__Output {
  'org': (string);
  'document': (string);
}
