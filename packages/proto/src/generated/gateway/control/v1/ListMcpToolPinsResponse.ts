// Original file: ../../proto/gateway/control/v1/control.proto

import type { McpToolPin as _gateway_control_v1_McpToolPin, McpToolPin__Output as _gateway_control_v1_McpToolPin__Output } from '../../../gateway/control/v1/McpToolPin.js';

export interface ListMcpToolPinsResponse {
  'pins'?: (_gateway_control_v1_McpToolPin)[];
}

export interface ListMcpToolPinsResponse__Output {
  'pins': (_gateway_control_v1_McpToolPin__Output)[];
}
