// Original file: ../../proto/gateway/control/v1/control.proto

import type { Model as _gateway_control_v1_Model, Model__Output as _gateway_control_v1_Model__Output } from '../../../gateway/control/v1/Model.js';
import type { Provider as _gateway_control_v1_Provider, Provider__Output as _gateway_control_v1_Provider__Output } from '../../../gateway/control/v1/Provider.js';
import type { McpServer as _gateway_control_v1_McpServer, McpServer__Output as _gateway_control_v1_McpServer__Output } from '../../../gateway/control/v1/McpServer.js';
import type { Long } from '@grpc/proto-loader';

export interface CatalogSnapshot {
  'version'?: (number | string | Long);
  'not_modified'?: (boolean);
  'models'?: (_gateway_control_v1_Model)[];
  'providers'?: (_gateway_control_v1_Provider)[];
  'mcp_servers'?: (_gateway_control_v1_McpServer)[];
}

export interface CatalogSnapshot__Output {
  'version': (number);
  'not_modified': (boolean);
  'models': (_gateway_control_v1_Model__Output)[];
  'providers': (_gateway_control_v1_Provider__Output)[];
  'mcp_servers': (_gateway_control_v1_McpServer__Output)[];
}
