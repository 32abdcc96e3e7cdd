// Original file: ../../proto/gateway/control/v1/control.proto


export interface ListKeysRequest {
  'org'?: (string);
}

export interface ListKeysRequest__Output {
  'org': (string);
}
