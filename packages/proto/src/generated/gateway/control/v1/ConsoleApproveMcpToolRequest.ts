// Original file: ../../proto/gateway/control/v1/control.proto


export interface ConsoleApproveMcpToolRequest {
  'token'?: (string);
  'server'?: (string);
  'tool'?: (string);
  'digest'?: (string);
}

export interface ConsoleApproveMcpToolRequest__Output {
  'token': (string);
  'server': (string);
  'tool': (string);
  'digest': (string);
}
