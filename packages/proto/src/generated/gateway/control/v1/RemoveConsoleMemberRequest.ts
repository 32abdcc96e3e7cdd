// Original file: ../../proto/gateway/control/v1/control.proto


export interface RemoveConsoleMemberRequest {
  'org'?: (string);
  'email'?: (string);
}

export interface RemoveConsoleMemberRequest__Output {
  'org': (string);
  'email': (string);
}
