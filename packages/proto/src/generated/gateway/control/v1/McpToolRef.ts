// Original file: ../../proto/gateway/control/v1/control.proto


export interface McpToolRef {
  'server'?: (string);
  'tool'?: (string);
  'digest'?: (string);
}

export interface McpToolRef__Output {
  'server': (string);
  'tool': (string);
  'digest': (string);
}
