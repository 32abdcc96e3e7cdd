// Original file: ../../proto/gateway/control/v1/control.proto


export interface Provider {
  'code'?: (string);
  'kind'?: (string);
  'base_url'?: (string);
  'credential_ref'?: (string);
  'auth_header'?: (string);
  'max_connections'?: (number);
  'http2'?: (boolean);
}

export interface Provider__Output {
  'code': (string);
  'kind': (string);
  'base_url': (string);
  'credential_ref': (string);
  'auth_header': (string);
  'max_connections': (number);
  'http2': (boolean);
}
