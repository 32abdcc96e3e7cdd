// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleRevokeKeyRequest {
  'token'?: (string);
  'key_id'?: (string);
}

export interface ConsoleRevokeKeyRequest__Output {
  'token': (string);
  'key_id': (string);
}
