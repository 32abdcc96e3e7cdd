// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleRecordAuditRequest {
  'token'?: (string);
  'org'?: (string);
  'action'?: (string);
  'target'?: (string);
  'detail_json'?: (string);
}

export interface ConsoleRecordAuditRequest__Output {
  'token': (string);
  'org': (string);
  'action': (string);
  'target': (string);
  'detail_json': (string);
}
