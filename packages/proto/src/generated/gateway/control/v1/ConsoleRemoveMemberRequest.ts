// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleRemoveMemberRequest {
  'token'?: (string);
  'email'?: (string);
}

export interface ConsoleRemoveMemberRequest__Output {
  'token': (string);
  'email': (string);
}
