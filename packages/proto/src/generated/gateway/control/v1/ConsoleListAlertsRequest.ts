// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleListAlertsRequest {
  'token'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
}

export interface ConsoleListAlertsRequest__Output {
  'token': (string);
  'cursor': (string);
  'limit': (number);
}
