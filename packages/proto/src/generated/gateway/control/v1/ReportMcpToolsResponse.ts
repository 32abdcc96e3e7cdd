// Original file: ../../proto/gateway/control/v1/control.proto


export interface ReportMcpToolsResponse {
  'pinned'?: (number);
  'changed'?: (number);
}

export interface ReportMcpToolsResponse__Output {
  'pinned': (number);
  'changed': (number);
}
