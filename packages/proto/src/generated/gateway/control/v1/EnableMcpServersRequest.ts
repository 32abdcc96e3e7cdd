// Original file: ../../proto/gateway/control/v1/control.proto


export interface EnableMcpServersRequest {
  'org'?: (string);
  'servers'?: (string)[];
}

export interface EnableMcpServersRequest__Output {
  'org': (string);
  'servers': (string)[];
}
