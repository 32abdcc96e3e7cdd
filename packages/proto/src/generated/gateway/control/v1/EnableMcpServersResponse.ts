// Original file: ../../proto/gateway/control/v1/control.proto


export interface EnableMcpServersResponse {
  'org_id'?: (string);
  'servers'?: (string)[];
}

export interface EnableMcpServersResponse__Output {
  'org_id': (string);
  'servers': (string)[];
}
