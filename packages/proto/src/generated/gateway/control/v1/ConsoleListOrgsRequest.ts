// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleListOrgsRequest {
  'token'?: (string);
  'query'?: (string);
}

export interface ConsoleListOrgsRequest__Output {
  'token': (string);
  'query': (string);
}
