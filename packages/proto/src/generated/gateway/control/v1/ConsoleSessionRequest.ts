// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleSessionRequest {
  'token'?: (string);
}

export interface ConsoleSessionRequest__Output {
  'token': (string);
}
