// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleCreateKeyRequest {
  'token'?: (string);
  'routes'?: (string)[];
  'models'?: (string)[];
  'name'?: (string);
  'rpm_limit'?: (number);
  'tpm_limit'?: (number);
}

export interface ConsoleCreateKeyRequest__Output {
  'token': (string);
  'routes': (string)[];
  'models': (string)[];
  'name': (string);
  'rpm_limit': (number);
  'tpm_limit': (number);
}
