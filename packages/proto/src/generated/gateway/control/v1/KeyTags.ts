// Original file: ../../proto/gateway/control/v1/control.proto


export interface KeyTags {
  'tags'?: (string)[];
}

export interface KeyTags__Output {
  'tags': (string)[];
}
