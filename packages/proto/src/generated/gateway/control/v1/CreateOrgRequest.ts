// Original file: ../../proto/gateway/control/v1/control.proto


export interface CreateOrgRequest {
  'name'?: (string);
}

export interface CreateOrgRequest__Output {
  'name': (string);
}
