// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleListAuditRequest {
  'token'?: (string);
  'org'?: (string);
  'cursor'?: (string);
  'limit'?: (number);
}

export interface ConsoleListAuditRequest__Output {
  'token': (string);
  'org': (string);
  'cursor': (string);
  'limit': (number);
}
