// Original file: ../../proto/gateway/control/v1/control.proto


export interface CreateSignInLinkRequest {
  'org'?: (string);
  'email'?: (string);
  'role'?: (string);
}

export interface CreateSignInLinkRequest__Output {
  'org': (string);
  'email': (string);
  'role': (string);
}
