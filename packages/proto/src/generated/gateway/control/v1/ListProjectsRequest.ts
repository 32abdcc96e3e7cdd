// Original file: ../../proto/gateway/control/v1/control.proto


export interface ListProjectsRequest {
  'org'?: (string);
}

export interface ListProjectsRequest__Output {
  'org': (string);
}
