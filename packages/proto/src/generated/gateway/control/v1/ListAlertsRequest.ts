// Original file: ../../proto/gateway/control/v1/control.proto


export interface ListAlertsRequest {
  'org'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
}

export interface ListAlertsRequest__Output {
  'org': (string);
  'cursor': (string);
  'limit': (number);
}
