// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleGrantTraceLookupRequest {
  'token'?: (string);
  'request_id'?: (string);
}

export interface ConsoleGrantTraceLookupRequest__Output {
  'token': (string);
  'request_id': (string);
}
