// Original file: ../../proto/gateway/control/v1/control.proto

import type { McpTool as _gateway_control_v1_McpTool, McpTool__Output as _gateway_control_v1_McpTool__Output } from '../../../gateway/control/v1/McpTool.js';

export interface McpServer {
  'name'?: (string);
  'url'?: (string);
  'credential_ref'?: (string);
  'auth_header'?: (string);
  'tools'?: (_gateway_control_v1_McpTool)[];
  'session_scope'?: (string);
  'identity_header'?: (string);
  'org_credential_refs'?: ({[key: string]: string});
}

export interface McpServer__Output {
  'name': (string);
  'url': (string);
  'credential_ref': (string);
  'auth_header': (string);
  'tools': (_gateway_control_v1_McpTool__Output)[];
  'session_scope': (string);
  'identity_header': (string);
  'org_credential_refs': ({[key: string]: string});
}
