// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleInviteMemberRequest {
  'token'?: (string);
  'email'?: (string);
  'role'?: (string);
}

export interface ConsoleInviteMemberRequest__Output {
  'token': (string);
  'email': (string);
  'role': (string);
}
