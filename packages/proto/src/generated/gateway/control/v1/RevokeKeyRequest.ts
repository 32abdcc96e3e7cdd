// Original file: ../../proto/gateway/control/v1/control.proto


export interface RevokeKeyRequest {
  'key_id'?: (string);
}

export interface RevokeKeyRequest__Output {
  'key_id': (string);
}
