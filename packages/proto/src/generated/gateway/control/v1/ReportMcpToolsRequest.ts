// Original file: ../../proto/gateway/control/v1/control.proto

import type { McpToolDefinition as _gateway_control_v1_McpToolDefinition, McpToolDefinition__Output as _gateway_control_v1_McpToolDefinition__Output } from '../../../gateway/control/v1/McpToolDefinition.js';

export interface ReportMcpToolsRequest {
  'server'?: (string);
  'tools'?: (_gateway_control_v1_McpToolDefinition)[];
  'listed'?: (string)[];
}

export interface ReportMcpToolsRequest__Output {
  'server': (string);
  'tools': (_gateway_control_v1_McpToolDefinition__Output)[];
  'listed': (string)[];
}
