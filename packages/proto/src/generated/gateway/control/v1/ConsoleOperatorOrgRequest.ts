// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleOperatorOrgRequest {
  'token'?: (string);
  'org_id'?: (string);
}

export interface ConsoleOperatorOrgRequest__Output {
  'token': (string);
  'org_id': (string);
}
