// Original file: ../../proto/gateway/control/v1/control.proto


export interface StartOidcSessionRequest {
  'email'?: (string);
  'issuer'?: (string);
  'subject'?: (string);
  'org'?: (string);
}

export interface StartOidcSessionRequest__Output {
  'email': (string);
  'issuer': (string);
  'subject': (string);
  'org': (string);
}
