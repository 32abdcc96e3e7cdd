// Original file: ../../proto/gateway/control/v1/control.proto


export interface AuthenticateKeyRequest {
  'key_hash'?: (string);
}

export interface AuthenticateKeyRequest__Output {
  'key_hash': (string);
}
