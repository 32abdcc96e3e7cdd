// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleMember {
  'id'?: (string);
  'org_id'?: (string);
  'email'?: (string);
  'role'?: (string);
}

export interface ConsoleMember__Output {
  'id': (string);
  'org_id': (string);
  'email': (string);
  'role': (string);
}
