// Original file: ../../proto/gateway/control/v1/control.proto


export interface EnableModelsRequest {
  'org'?: (string);
  'models'?: (string)[];
}

export interface EnableModelsRequest__Output {
  'org': (string);
  'models': (string)[];
}
