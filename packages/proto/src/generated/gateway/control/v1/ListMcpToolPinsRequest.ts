// Original file: ../../proto/gateway/control/v1/control.proto


export interface ListMcpToolPinsRequest {
  'server'?: (string);
}

export interface ListMcpToolPinsRequest__Output {
  'server': (string);
}
